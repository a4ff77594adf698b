package io.dpone.clickhouse.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The checkpoint table's statements, exactly: identifiers back-quoted (a keyword too), values escaped. */
class CheckpointStatementsTest {
    private final RecordingEndpoint ch = new RecordingEndpoint();

    @Test
    void theTableIsCreatedThenGivenTheColumnsLaterVersionsAdded() {
        new CheckpointTable(ch, "from", "select").ensure();
        assertEquals(List.of("CREATE DATABASE IF NOT EXISTS `from`",
            "CREATE TABLE IF NOT EXISTS `from`.`select` (checkpoint_key String, schema String, stream_id String, "
                + "stream_json String, backend String, token String, snapshot_complete UInt8, "
                + "saved_at DateTime64(3, 'UTC'), saved_version UInt64, resume String DEFAULT '', "
                + "writer String DEFAULT '', capture_instance String DEFAULT '') "
                + "ENGINE = ReplacingMergeTree(saved_version) ORDER BY checkpoint_key",
            "ALTER TABLE `from`.`select` ADD COLUMN IF NOT EXISTS resume String DEFAULT ''",
            "ALTER TABLE `from`.`select` ADD COLUMN IF NOT EXISTS writer String DEFAULT ''",
            "ALTER TABLE `from`.`select` ADD COLUMN IF NOT EXISTS capture_instance String DEFAULT ''"), ch.statements);
    }

    @Test
    void theColumnsAreReadInOneQueryInCatalogueOrder() {
        ch.answer(List.of(List.of("token", "String"), List.of("saved_version", "UInt64")));
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("token", "String");
        expected.put("saved_version", "UInt64");
        assertEquals(expected, new CheckpointTable(ch, "ops", "cdc_offsets").columns());
        assertEquals(List.of("SELECT name, type FROM system.columns WHERE database = 'ops' AND table = 'cdc_offsets'"),
            ch.statements);
        assertEquals(Map.of(), new CheckpointTable(ch, "ops", "cdc_offsets").columns(), "no rows: no table");
    }

    @Test
    void aNameThatIsNoIdentifierIsRefusedBeforeAnyStatement() {
        assertThrows(IllegalArgumentException.class, () -> new CheckpointTable(ch, "ops", "x`; DROP TABLE y"));
        assertThrows(IllegalArgumentException.class, () -> new CheckpointRows(ch, "a.b", "cdc_offsets"));
        assertEquals(List.of(), ch.statements);
    }

    @Test
    void theLatestRowIsReadByVersionWithTheKeyEscaped() {
        CheckpointRows rows = new CheckpointRows(ch, "ops", "cdc_offsets");
        ch.answer(List.of(List.of("id", "{}", "mssql_cdc", "0x10", "1", "7", "dpone.cdc_checkpoint.v1", "", "")));
        assertEquals(Optional.of(new CheckpointRows.Stored("id", "{}", "mssql_cdc", "0x10", "1", "7",
            "dpone.cdc_checkpoint.v1", "", "")), rows.latest("o'k\\", true, true));
        assertEquals(Optional.empty(), rows.latest("p", false, false));
        String common = "SELECT argMax(stream_id, saved_version), argMax(stream_json, saved_version), "
            + "argMax(backend, saved_version), argMax(token, saved_version), argMax(snapshot_complete, saved_version), "
            + "max(saved_version), argMax(schema, saved_version), ";
        assertEquals(List.of(common + "argMax(resume, saved_version), argMax(capture_instance, saved_version) FROM "
                + "`ops`.`cdc_offsets` WHERE checkpoint_key = 'o\\'k\\\\' HAVING count() > 0",
            common + "'', '' FROM `ops`.`cdc_offsets` WHERE checkpoint_key = 'p' HAVING count() > 0"), ch.statements);
    }

    @Test
    void aCheckpointIsOneSynchronousInsertSelect() {
        new CheckpointRows(ch, "ops", "select").insert(new CheckpointRows.Checkpoint("orders",
            "dpone.cdc_checkpoint.v1", "sid", "{\"a\":\"it's\"}", "mssql_cdc", "0x10", true,
            "2026-01-02 03:04:05.678", 42L, "", "tick-1", "dbo_x"));
        assertEquals(List.of("INSERT INTO `ops`.`select` (`checkpoint_key`, `schema`, `stream_id`, `stream_json`, "
            + "`backend`, `token`, `snapshot_complete`, `saved_at`, `saved_version`, `resume`, `writer`, "
            + "`capture_instance`) SETTINGS async_insert = 0 SELECT 'orders', 'dpone.cdc_checkpoint.v1', 'sid', "
            + "'{\"a\":\"it\\'s\"}', 'mssql_cdc', '0x10', 1, '2026-01-02 03:04:05.678', 42, '', 'tick-1', 'dbo_x'"),
            ch.statements);
    }

    @Test
    void theWritersAboveAVersionAreReadInVersionOrder() {
        ch.answer(Arrays.asList(List.of("tick-a"), List.of("tick-b")));
        assertEquals(List.of("tick-a", "tick-b"), new CheckpointRows(ch, "ops", "cdc_offsets").writersAbove("k", 9));
        assertEquals(List.of("SELECT writer FROM `ops`.`cdc_offsets` WHERE checkpoint_key = 'k' AND saved_version > 9 "
            + "ORDER BY saved_version"), ch.statements);
    }
}
