package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.local.FileOffsetStore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.error.DponeException;
import io.dpone.report.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FileOffsetStoreTest extends CdcOffsetStoreContract {
    @TempDir
    Path dir;

    @Override
    CdcOffsetStore store() {
        return new FileOffsetStore(dir.resolve("state/checkpoint.json"));
    }

    @Test
    void anUnreadableCheckpointIsTyped() throws Exception {
        Path file = dir.resolve("checkpoint.json");
        Files.writeString(file, "{\"schema\": \"something.else\"}");
        DponeException e = assertThrows(DponeException.class, () -> new FileOffsetStore(file).load(STREAM));
        assertEquals(CdcBlockers.CHECKPOINT_INVALID, e.blockers().get(0).code());
        assertEquals("--checkpoint-json", e.blockers().get(0).subject());
        assertEquals("{\"schema\": \"something.else\"}", Files.readString(file));
    }

    /**
     * A checkpoint that reads as JSON but breaks the stream's rules is refused on load and on commit, naming the
     * field and never its value, and the file keeps its bytes (each row: object, key, its new JSON value, the field).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "offset | backend | \"mssql_change_tracking\" | offset.backend",
        " | stream_id | \"00000000000000000000000000000000\" | stream_id",
        " | stream_id | 7 | stream_id",
        "offset | token | \"9876\" | offset.token",
        "offset | token | 20 | offset.token",
        "offset | resume | \"{not json 4242\" | offset.resume",
        "offset | resume | \"[4242]\" | offset.resume",
        "offset | snapshot_complete | \"true\" | offset.snapshot_complete",
        "offset | capture_instance | 4242 | offset.capture_instance",
        "offset | capture_instance | \"dbo.orders;4242\" | offset.capture_instance",
    })
    void aCheckpointThatBreaksTheStreamsRulesIsRefusedByFieldAndNeverOverwritten(String object, String key,
                                                                                 String value, String field)
        throws Exception {
        Path file = dir.resolve("checkpoint.json");
        FileOffsetStore s = new FileOffsetStore(file);
        s.commit(STREAM, Optional.empty(), new CdcOffset("mssql_cdc", "0x14", true), "test-writer");
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(file.toFile());
        ObjectNode target = object == null ? root : (ObjectNode) root.get(object);
        target.set(key, Json.MAPPER.readTree(value));
        String tampered = Json.MAPPER.writeValueAsString(root);
        Files.writeString(file, tampered);
        DponeException load = assertThrows(DponeException.class, () -> s.load(STREAM));
        var b = load.blockers().get(0);
        assertEquals(CdcBlockers.CHECKPOINT_INVALID, b.code());
        assertEquals("--checkpoint-json", b.subject());
        assertEquals(field, b.details().get("field"));
        assertTrue(b.message().contains(field), b.message());
        assertFalse(b.message().contains("9876") || b.message().contains("4242") || b.message().contains("0000"),
            b.message());
        DponeException commit = assertThrows(DponeException.class, () -> s.commit(STREAM,
            Optional.of(new CdcOffset("mssql_cdc", "0x14", true)), new CdcOffset("mssql_cdc", "0x15", true), "w"));
        assertEquals(CdcBlockers.CHECKPOINT_INVALID, commit.blockers().get(0).code());
        assertEquals(tampered, Files.readString(file));
    }

    @Test
    void aLocalEventsBackendTakesEitherTokenShapeAndChangeTrackingTakesDecimal() {
        StreamIdentity local = new StreamIdentity("p", "events_json", "dbo", "orders", "a.orders", List.of("id"));
        StreamIdentity ct = new StreamIdentity("p", "mssql_change_tracking", "dbo", "orders", "a.orders",
            List.of("id"));
        FileOffsetStore a = new FileOffsetStore(dir.resolve("a.json"));
        a.commit(local, Optional.empty(), new CdcOffset("events_json", "0x10", true), "w");
        a.commit(local, a.load(local), new CdcOffset("events_json", "17", true), "w");
        assertEquals("17", a.load(local).orElseThrow().token());
        FileOffsetStore b = new FileOffsetStore(dir.resolve("b.json"));
        b.commit(ct, Optional.empty(), new CdcOffset("mssql_change_tracking", "1042", true, "{\"version\":1043}"), "w");
        assertEquals("1042", b.load(ct).orElseThrow().token());
        FileOffsetStore c = new FileOffsetStore(dir.resolve("c.json"));
        c.commit(ct, Optional.empty(), new CdcOffset("mssql_change_tracking", "0x10", true), "w");
        DponeException e = assertThrows(DponeException.class, () -> c.load(ct));
        assertEquals("offset.token", e.blockers().get(0).details().get("field"));
    }
}
