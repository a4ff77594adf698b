package io.dpone.cdc;

import static io.dpone.cdc.CdcFixtures.codes;
import static io.dpone.cdc.CdcFixtures.exampleDir;
import static io.dpone.cdc.CdcFixtures.json;
import static io.dpone.cdc.CdcFixtures.stage;
import static io.dpone.cdc.CdcFixtures.subjects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.testing.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed events JSON: a typed error naming the field, red report, nothing applied, no checkpoint. */
class CdcEventsValidationTest {
    @TempDir
    Path dir;

    private JsonNode red() {
        CliRun run = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(1, run.exitCode(), run.stdout());
        assertEquals("", run.stdout());
        assertFalse(Files.exists(exampleDir(dir).resolve("sink/cdc_sink_rows.json")), "nothing applied");
        assertFalse(Files.exists(exampleDir(dir).resolve("checkpoint.json")), "nothing committed");
        CdcFixtures.assertNoLocalPath(run, dir);
        return json(run.stderr());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "changes_3_operation_unknown, cdc_runtime.events_invalid, changes[3].operation",
        "changes_1_position_missing, cdc_runtime.events_invalid, changes[1].position",
        "changes_1_position_null, cdc_runtime.events_invalid, changes[1].position",
        "changes_0_position_not_hex, cdc_runtime.events_invalid, changes[0].position",
        "changes_2_data_order_id_missing, cdc_runtime.events_invalid, changes[2].data.order_id",
        "changes_4_sequence_negative, cdc_runtime.events_invalid, changes[4].sequence",
        "changes_0_unknown_key, cdc_runtime.events_invalid, changes[0].lsn",
        "changes_5_source_table_missing, cdc_runtime.events_invalid, changes[5].source_table",
        "next_offset_token_missing, cdc_runtime.events_invalid, next_offset.token",
        "malformed_json, cdc_runtime.events_unreadable, --events-json",
        "duplicate_key, cdc_runtime.events_unreadable, --events-json",
    })
    void invalidFixtureNamesTheField(String fixture, String code, String subject) {
        stage(dir, "invalid/" + fixture + ".json");
        JsonNode doc = red();
        assertEquals(List.of(code), codes(doc));
        assertEquals(List.of(subject), subjects(doc));
    }

    @Test
    void invalidUtf8IsReportedWithItsByteOffset() throws Exception {
        Path events = exampleDir(dir).resolve("events.json");
        Files.createDirectories(events.getParent());
        byte[] head = "{\"changes\": [], \"high_watermark\": \"0x1".getBytes(StandardCharsets.UTF_8);
        byte[] bad = new byte[head.length + 3];
        System.arraycopy(head, 0, bad, 0, head.length);
        bad[head.length] = (byte) 0xC3;
        bad[head.length + 1] = (byte) 0x28;
        bad[head.length + 2] = (byte) '"';
        Files.write(events, bad);
        JsonNode doc = red();
        assertEquals(List.of(CdcBlockers.EVENTS_UNREADABLE), codes(doc));
        assertEquals(head.length, doc.path("blockers").get(0).path("details").path("byte_offset").asInt());
    }

    @Test
    void missingFileIsUnreadable() {
        JsonNode doc = red();
        assertEquals(List.of(CdcBlockers.EVENTS_UNREADABLE), codes(doc));
        assertTrue(doc.path("blockers").get(0).path("message").asText().startsWith("events.json does not exist"));
    }

    @Test
    void everyProblemIsCollected() throws Exception {
        Path events = stage(dir, "orders/events.json");
        Files.writeString(events, Files.readString(events).replace("\"operation\": \"update\"",
            "\"operation\": \"merge\"").replace("\"position\": \"0x12\"", "\"position\": 18"));
        JsonNode doc = red();
        assertEquals(List.of("changes[3].operation", "changes[4].position"), subjects(doc));
    }
}
