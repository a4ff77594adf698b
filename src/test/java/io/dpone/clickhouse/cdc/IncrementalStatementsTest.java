package io.dpone.clickhouse.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The statements of incremental serving ({@link LogVersions}, {@link VersionedTable}, {@link VersionedCompaction},
 * {@link ServingState}, {@link ServingView}) word for word, as the materializer ran them before they moved here;
 * a hostile name is refused before anything runs and a hostile value travels escaped. The engine runs them in
 * {@code IncrementalServingTest}.
 */
class IncrementalStatementsTest {

    static final Instant CUTOFF = Instant.parse("2026-01-02T03:04:05.678Z");

    @Test
    void theLogIsReadByVersion() {
        RecordingEndpoint ch = new RecordingEndpoint().answer(List.of()).answer(List.of(List.of("4", "17")))
            .answer(List.of(List.of("0", ""))).answer(List.of(List.of("5", "2"))).answer(List.of(List.of("9", "1")));
        LogVersions log = new LogVersions(ch, "logdb", "orders_cdc");
        assertEquals(false, log.hasVersionIndex());
        log.addVersionIndex();
        assertEquals(new LogVersions.Range(4, "17"), log.above("7"));
        assertEquals(new LogVersions.Range(0, ""), log.above(null));
        assertEquals("5", log.batchEnd(null, "9", 2), "the highest version of the first two rows");
        assertEquals("9", log.batchEnd("5", "9", 2), "fewer rows than a batch: the bound");
        assertEquals(List.of(
            "SELECT 1 FROM system.data_skipping_indices WHERE database = 'logdb' AND table = 'orders_cdc' AND name = "
                + "'dpone_cdc_version_minmax'",
            "ALTER TABLE `logdb`.`orders_cdc` ADD INDEX IF NOT EXISTS `dpone_cdc_version_minmax` `dpone_cdc_version` "
                + "TYPE minmax GRANULARITY 1",
            "ALTER TABLE `logdb`.`orders_cdc` MATERIALIZE INDEX `dpone_cdc_version_minmax` SETTINGS mutations_sync = 2",
            "SELECT count(), toString(max(`dpone_cdc_version`)) FROM `logdb`.`orders_cdc` WHERE `dpone_cdc_version` > "
                + "toUInt256('7')",
            "SELECT count(), toString(max(`dpone_cdc_version`)) FROM `logdb`.`orders_cdc`",
            "SELECT toString(max(`dpone_cdc_version`)), count() FROM (SELECT `dpone_cdc_version` FROM "
                + "`logdb`.`orders_cdc` WHERE `dpone_cdc_version` <= toUInt256('9') ORDER BY `dpone_cdc_version` "
                + "LIMIT 2)",
            "SELECT toString(max(`dpone_cdc_version`)), count() FROM (SELECT `dpone_cdc_version` FROM "
                + "`logdb`.`orders_cdc` WHERE `dpone_cdc_version` > toUInt256('5') AND `dpone_cdc_version` <= "
                + "toUInt256('9') ORDER BY `dpone_cdc_version` LIMIT 2)"), ch.statements);
        assertEquals("SELECT `id`, `dpone_cdc_operation` FROM `logdb`.`orders_cdc` WHERE `dpone_cdc_version` > "
            + "toUInt256('3') AND `dpone_cdc_version` <= toUInt256('9') AND `dpone_cdc_operation` != 'update_before'",
            log.rows(List.of("id", "dpone_cdc_operation"), "3", "9"));
        assertEquals("SELECT `id` FROM `logdb`.`orders_cdc` WHERE `dpone_cdc_version` <= toUInt256('9\\' OR 1') AND "
            + "`dpone_cdc_operation` != 'update_before'", log.rows(List.of("id"), null, "9' OR 1"),
            "a value is a literal, its quote escaped");
    }

    @Test
    void theVersionedTableIsCreatedAndFilled() {
        RecordingEndpoint ch = new RecordingEndpoint().answer(List.of(List.of("0b1c"))).answer(List.of());
        VersionedTable t = new VersionedTable(ch, "srv");
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("id", "Int32");
        columns.put("dpone_cdc_deleted", "UInt8");
        t.create("t__dpone_cdc_versions", columns, List.of("id"), true, "dpone.cdc_versions.v1 source=a.b target=c.d");
        t.create("t__dpone_cdc_reseed", columns, List.of("id"), false, "it's");
        t.insert("t__dpone_cdc_versions", List.of("id", "dpone_cdc_operation"), "SELECT 1", "c.d:0:it's");
        t.insert("t__dpone_cdc_versions", List.of("id"), "SELECT 2", null);
        assertEquals("0b1c", t.uuid("t__dpone_cdc_versions"));
        assertEquals("", t.uuid("gone"));
        assertEquals(List.of(
            "CREATE TABLE `srv`.`t__dpone_cdc_versions` (`id` Int32, `dpone_cdc_deleted` UInt8) ENGINE = "
                + "ReplacingMergeTree(`dpone_cdc_version`, `dpone_cdc_deleted`) ORDER BY (`id`) SETTINGS "
                + "non_replicated_deduplication_window = 1000 COMMENT 'dpone.cdc_versions.v1 source=a.b target=c.d'",
            "CREATE TABLE `srv`.`t__dpone_cdc_reseed` (`id` Int32, `dpone_cdc_deleted` UInt8) ENGINE = "
                + "ReplacingMergeTree(`dpone_cdc_version`) ORDER BY (`id`) SETTINGS "
                + "non_replicated_deduplication_window = 1000 COMMENT 'it\\'s'",
            "INSERT INTO `srv`.`t__dpone_cdc_versions` (`id`, `dpone_cdc_operation`, `dpone_cdc_deleted`) SELECT `id`, "
                + "`dpone_cdc_operation`, toUInt8(`dpone_cdc_operation` = 'delete') FROM (SELECT 1) SETTINGS "
                + "async_insert = 0, insert_deduplicate = 1, insert_deduplication_token = 'c.d:0:it\\'s'",
            "INSERT INTO `srv`.`t__dpone_cdc_versions` (`id`, `dpone_cdc_deleted`) SELECT `id`, "
                + "toUInt8(`dpone_cdc_operation` = 'delete') FROM (SELECT 2) SETTINGS async_insert = 0",
            "SELECT toString(uuid) FROM system.tables WHERE database = 'srv' AND name = 't__dpone_cdc_versions'",
            "SELECT toString(uuid) FROM system.tables WHERE database = 'srv' AND name = 'gone'"), ch.statements);
        assertEquals("SELECT `id`, `v` FROM (SELECT x) ORDER BY `id`, `dpone_cdc_version` DESC LIMIT 1 BY `id`",
            VersionedTable.latest("SELECT x", List.of("id", "v"), List.of("id")));
    }

    @Test
    void aHostileNameIsRefusedBeforeAnythingRuns() {
        RecordingEndpoint ch = new RecordingEndpoint();
        String hostile = "t`; DROP TABLE x; --";
        assertThrows(IllegalArgumentException.class, () -> new VersionedTable(ch, "srv").create(hostile,
            Map.of("id", "Int32"), List.of("id"), true, "c"));
        assertThrows(IllegalArgumentException.class, () -> new VersionedTable(ch, "srv").insert("t",
            List.of("id", "x`y"), "SELECT 1", null));
        assertThrows(IllegalArgumentException.class, () -> new LogVersions(ch, "logdb", hostile));
        assertThrows(IllegalArgumentException.class, () -> new VersionedCompaction(ch, "srv", "t", List.of(hostile))
            .purgeExpiredDeletes(false, CUTOFF));
        assertThrows(IllegalArgumentException.class, () -> new ServingView(ch, hostile).create("t", "SELECT 1", "c"));
        assertThrows(IllegalArgumentException.class, () -> new ServingState(ch, hostile).create());
        assertTrue(ch.statements.isEmpty(), String.valueOf(ch.statements));
        // a hostile name in a catalogue read is a value there, and travels escaped
        new VersionedTable(ch.answer(List.of()), "srv").uuid("t' OR '1");
        assertEquals(List.of("SELECT toString(uuid) FROM system.tables WHERE database = 'srv' AND name = "
            + "'t\\' OR \\'1'"), ch.statements);
    }

    @Test
    void compactionCountsAndPurgesExpiredDeletes() {
        RecordingEndpoint ch = new RecordingEndpoint().answer(List.of(List.of("3", "10", "6"))).answer(List.of(List.of("0", "0", "0")))
            .answer(List.of(List.of("2"))).answer(List.of(List.of("5")));
        VersionedCompaction c = new VersionedCompaction(ch, "srv", "t__v", List.of("id", "k2"));
        assertEquals(new VersionedCompaction.Parts(3, 10, 6), c.parts());
        assertEquals(new VersionedCompaction.Parts(0, 0, 0), c.parts());
        c.optimizeFinal();
        assertEquals(2, c.expiredDeletes(true, CUTOFF));
        assertEquals(5, c.expiredDeletes(false, CUTOFF));
        c.purgeExpiredDeletes(true, CUTOFF);
        c.purgeExpiredDeletes(false, CUTOFF);
        String byKey = "(`id`, `k2`) IN (SELECT `id`, `k2` FROM `srv`.`t__v` GROUP BY `id`, `k2` HAVING "
            + "argMax(`dpone_cdc_deleted`, `dpone_cdc_version`) = 1 AND argMax(`dpone_cdc_commit_time`, "
            + "`dpone_cdc_version`) < toDateTime64('2026-01-02 03:04:05.678', 3, 'UTC'))";
        String onePart = "`dpone_cdc_deleted` = 1 AND `dpone_cdc_commit_time` < "
            + "toDateTime64('2026-01-02 03:04:05.678', 3, 'UTC')";
        String parts = "SELECT count(), sum(rows), max(rows) FROM system.parts WHERE database = 'srv' AND table = "
            + "'t__v' AND active";
        assertEquals(List.of(parts, parts, "OPTIMIZE TABLE `srv`.`t__v` FINAL",
            "SELECT count() FROM `srv`.`t__v` WHERE " + onePart,
            "SELECT count() FROM `srv`.`t__v` WHERE " + byKey,
            "ALTER TABLE `srv`.`t__v` DELETE WHERE " + onePart + " SETTINGS mutations_sync = 2",
            "ALTER TABLE `srv`.`t__v` DELETE WHERE " + byKey + " SETTINGS mutations_sync = 2"), ch.statements);
    }

    @Test
    void theStateIsReadCreatedAndRecorded() {
        RecordingEndpoint ch = new RecordingEndpoint().answer(List.of())
            .answer(List.of(List.of("u-1", "9", "", "tombstone", "42")));
        ServingState s = new ServingState(ch, "srv");
        assertEquals(Optional.empty(), s.latest("srv.t"));
        assertEquals(Optional.of(new ServingState.Row("u-1", "9", "", "tombstone", 42)), s.latest("srv.t"));
        s.create();
        s.record("srv.t", "log.c", new ServingState.Row("u-1", null, "run'1", "tombstone", 43));
        String read = "SELECT argMax(versions_uuid, state_version), argMax(applied_version, state_version), "
            + "argMax(snapshot_run_id, state_version), argMax(delete_mode, state_version), max(state_version) FROM "
            + "`srv`.`dpone_cdc_materialized` WHERE target_dataset = 'srv.t' HAVING count() > 0";
        assertEquals(List.of(read, read,
            "CREATE TABLE IF NOT EXISTS `srv`.`dpone_cdc_materialized` (target_dataset String, cdc_dataset String, "
                + "versions_uuid String, applied_version String, snapshot_run_id String, delete_mode String, "
                + "updated_at DateTime64(3, 'UTC'), state_version UInt64) ENGINE = ReplacingMergeTree(state_version) "
                + "ORDER BY target_dataset",
            "INSERT INTO `srv`.`dpone_cdc_materialized` (`target_dataset`, `cdc_dataset`, `versions_uuid`, "
                + "`applied_version`, `snapshot_run_id`, `delete_mode`, `updated_at`, `state_version`) SETTINGS "
                + "async_insert = 0 SELECT 'srv.t', 'log.c', 'u-1', '', 'run\\'1', 'tombstone', now64(3), 43"),
            ch.statements);
    }

    @Test
    void theViewReadsTheLatestRowPerKey() {
        Map<String, String> types = Map.of("id", "Int32", "name", "LowCardinality(String)", "at",
            "DateTime64(3, 'UTC')", "dpone_cdc_deleted", "UInt8");
        assertEquals("SELECT CAST(`id`, 'Int32') AS `id`, CAST(`name`, 'LowCardinality(String)') AS `name`, "
            + "CAST(`at`, 'DateTime64(3, \\'UTC\\')') AS `at` FROM `srv`.`t__v` FINAL",
            ServingView.select(new ServingView.Source("srv", "t__v", List.of("id", "name", "at"), types,
                List.of("id"), false), true));
        assertEquals("SELECT CAST(`id`, 'Int32') AS `id`, CAST(tupleElement(`dpone_cdc_row`, 1), "
            + "'LowCardinality(String)') AS `name` FROM (SELECT `id`, argMax(tuple(`name`, `dpone_cdc_deleted`), "
            + "`dpone_cdc_version`) AS `dpone_cdc_row` FROM `srv`.`t__v` GROUP BY `id`) AS `dpone_cdc_rows` WHERE "
            + "tupleElement(`dpone_cdc_row`, 2) = 0",
            ServingView.select(new ServingView.Source("srv", "t__v", List.of("id", "name"), types, List.of("id"),
                false), false));
        assertEquals("SELECT CAST(`id`, 'Int32') AS `id`, CAST(tupleElement(`dpone_cdc_row`, 1), "
            + "'LowCardinality(String)') AS `name`, CAST(tupleElement(`dpone_cdc_row`, 2), 'UInt8') AS "
            + "`dpone_cdc_deleted` FROM (SELECT `id`, argMax(tuple(`name`, `dpone_cdc_deleted`), `dpone_cdc_version`) "
            + "AS `dpone_cdc_row` FROM `srv`.`t__v` GROUP BY `id`) AS `dpone_cdc_rows`",
            ServingView.select(new ServingView.Source("srv", "t__v", List.of("id", "name", "dpone_cdc_deleted"),
                types, List.of("id"), true), false));
    }

    @Test
    void theViewIsPublished() {
        RecordingEndpoint ch = new RecordingEndpoint().answer(List.of()).answer(List.of(List.of("View", "c1")));
        ServingView v = new ServingView(ch, "srv");
        assertEquals(Optional.empty(), v.existing("t"));
        assertEquals(Optional.of(new ServingView.Existing("View", "c1")), v.existing("t"));
        v.create("t", "SELECT 1", "dpone.cdc_materialized.v1 source=it's");
        v.replace("t", "SELECT 2", "c2");
        String existing = "SELECT engine, comment FROM system.tables WHERE database = 'srv' AND name = 't'";
        assertEquals(List.of(existing, existing,
            "CREATE VIEW `srv`.`t` AS SELECT 1 COMMENT 'dpone.cdc_materialized.v1 source=it\\'s'",
            "CREATE OR REPLACE VIEW `srv`.`t` AS SELECT 2 COMMENT 'c2'"), ch.statements);
    }
}
