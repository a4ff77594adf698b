package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.local.LocalSinkApplier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalSinkApplierTest extends CdcSinkApplierContract {
    @TempDir
    Path dir;

    @Override
    CdcSinkApplier applier() {
        return new LocalSinkApplier(dir.resolve("sink"), new EventIdentityIdempotency());
    }

    @Override
    int rowCount() {
        Path rows = dir.resolve("sink/cdc_sink_rows.json");
        return Files.exists(rows) ? CdcFixtures.read(rows).path("rows").size() : 0;
    }

    @Test
    void rowsCarryTheDocumentedColumns() {
        applier().apply(STREAM, new CdcApplyBatch("b1", "run-1", EVENTS));
        JsonNode row = CdcFixtures.read(dir.resolve("sink/cdc_sink_rows.json")).path("rows").get(1);
        List<String> names = new java.util.ArrayList<>();
        row.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("dpone_cdc_batch_id", "dpone_cdc_event_id", "dpone_cdc_operation", "dpone_cdc_position",
            "dpone_cdc_run_id", "dpone_cdc_sequence", "dpone_cdc_unique_key_hash", "dpone_cdc_version", "order_id"),
            names);
        assertEquals("update", row.path("dpone_cdc_operation").asText());
        assertEquals(CdcHashes.sha256Hex("[1]"), row.path("dpone_cdc_unique_key_hash").asText());
        assertEquals(EVENTS.get(1).version().toString(), row.path("dpone_cdc_version").asText());
        assertEquals("b1", CdcFixtures.read(dir.resolve("sink/cdc_sink_receipt.json")).path("batch_id").asText());
    }
}
