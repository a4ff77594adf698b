package io.dpone.clickhouse.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.clickhouse.ClickHouseEndpoint;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CDC log's statements, exactly: identifiers back-quoted (keywords too), values and comments escaped. */
class CdcLogStatementsTest {
    private final RecordingEndpoint ch = new RecordingEndpoint();

    @Test
    void theLogIsCreatedWithItsPayloadAndMetaColumnsSortKeyWindowAndComment() {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("dpone_cdc_unique_key_hash", "String");
        meta.put("dpone_cdc_version", "UInt256");
        new CdcLogDdl(ch, "from", "select").create(List.of(new CdcLogDdl.PayloadColumn("order", "Int32", "k=1 it's"),
            new CdcLogDdl.PayloadColumn("note", "String", null)), meta,
            List.of("dpone_cdc_unique_key_hash", "dpone_cdc_version"), 1000, "dpone.cdc_log.v1 stream_id=a'b");
        assertEquals(List.of("CREATE DATABASE IF NOT EXISTS `from`", "CREATE TABLE IF NOT EXISTS `from`.`select` ("
            + "`order` Nullable(Int32) COMMENT 'k=1 it\\'s', `note` Nullable(String), "
            + "`dpone_cdc_unique_key_hash` String, `dpone_cdc_version` UInt256) ENGINE = MergeTree ORDER BY "
            + "(`dpone_cdc_unique_key_hash`, `dpone_cdc_version`) SETTINGS non_replicated_deduplication_window = 1000 "
            + "COMMENT 'dpone.cdc_log.v1 stream_id=a\\'b'"), ch.statements);
    }

    @Test
    void aLogWithoutPayloadColumnsStartsWithItsMetaColumns() {
        new CdcLogDdl(ch, "db", "log").create(List.of(), Map.of("dpone_cdc_version", "UInt256"),
            List.of("dpone_cdc_version"), 10, "c");
        assertEquals("CREATE TABLE IF NOT EXISTS `db`.`log` (`dpone_cdc_version` UInt256) ENGINE = MergeTree ORDER BY "
            + "(`dpone_cdc_version`) SETTINGS non_replicated_deduplication_window = 10 COMMENT 'c'",
            ch.statements.get(1));
    }

    @Test
    void missingColumnsAreAddedInOneStatementAndNoneIsNoStatement() {
        CdcLogDdl ddl = new CdcLogDdl(ch, "db", "log");
        ddl.addColumns(List.of());
        ddl.addColumns(List.of(new CdcLogDdl.PayloadColumn("where", "String", null),
            new CdcLogDdl.PayloadColumn("amount", "Decimal(10, 2)",
                "dpone.cdc_column.v1 mssql=decimal(10,2) nullable=1")));
        assertEquals(List.of("ALTER TABLE `db`.`log` ADD COLUMN IF NOT EXISTS `where` Nullable(String), "
            + "ADD COLUMN IF NOT EXISTS `amount` Nullable(Decimal(10, 2)) COMMENT "
            + "'dpone.cdc_column.v1 mssql=decimal(10,2) nullable=1'"), ch.statements);
    }

    @Test
    void changedColumnsAreModifiedAndCommentedInOneStatement() {
        CdcLogDdl ddl = new CdcLogDdl(ch, "db", "log");
        ddl.alterColumns(List.of());
        ddl.alterColumns(List.of(new CdcLogDdl.PayloadColumn("group", "Int64", "m nullable=1"),
            new CdcLogDdl.PayloadColumn("b", "String", "n")));
        assertEquals(List.of("ALTER TABLE `db`.`log` MODIFY COLUMN `group` Nullable(Int64), COMMENT COLUMN `group` "
            + "'m nullable=1', MODIFY COLUMN `b` Nullable(String), COMMENT COLUMN `b` 'n'"), ch.statements);
        assertThrows(IllegalArgumentException.class, () -> ddl.alterColumns(List.of(
            new CdcLogDdl.PayloadColumn("c", "String", null))), "an altered column carries its comment");
        assertThrows(IllegalArgumentException.class, () -> ddl.addColumns(List.of(
            new CdcLogDdl.PayloadColumn("c` String, x", "String", null))), "a hostile column name is refused");
        assertEquals(1, ch.statements.size());
    }

    @Test
    void theShapeIsOneQueryOfColumnsWithTheirCommentsAndTheTables() {
        ch.answer(Arrays.asList(Arrays.asList("id", "t c", "k"), Arrays.asList("x", null, null)));
        assertEquals(List.of(new CdcLogDdl.CataloguedColumn("id", "t c", "k"),
            new CdcLogDdl.CataloguedColumn("x", null, null)), new CdcLogDdl(ch, "select", "l").describe());
        assertEquals(List.of("SELECT name, (SELECT comment FROM system.tables WHERE database = 'select' "
            + "AND name = 'l'), comment FROM system.columns WHERE database = 'select' AND table = 'l'"), ch.statements);
    }

    @Test
    void aBatchIsOneTokenDeduplicatedInsertFromItsSpoolFile() {
        Path file = Path.of("target", "test-tmp", "b.rowbinary");
        new CdcLogRows(ch, "db", "table").insert(new CdcLogRows.BatchFile(file, "RowBinary",
            List.of(new CdcLogRows.FileColumn("select", "Nullable(String)"),
                new CdcLogRows.FileColumn("dpone_cdc_version", "UInt256")),
            "2026-01-02 03:04:05.678", "run'1", "batch\\1"));
        assertEquals(List.of(), ch.statements);
        assertEquals(List.of(new ClickHouseEndpoint.InsertFile("`db`.`table`", "`select`, `dpone_cdc_version`, "
            + "`dpone_cdc_commit_time`, `dpone_cdc_run_id`, `dpone_cdc_batch_id`", "`select`, `dpone_cdc_version`, "
            + "toDateTime64('2026-01-02 03:04:05.678', 3, 'UTC'), 'run\\'1', 'batch\\\\1'", file, "RowBinary",
            "`select` Nullable(String), `dpone_cdc_version` UInt256",
            "insert_deduplicate = 1, async_insert = 0, insert_deduplication_token = 'batch\\\\1'")), ch.inserts);
    }

    @Test
    void heldEventsAreReadInTheBatchsVersionRangeAndTheCountIsOneQuery() {
        CdcLogRows rows = new CdcLogRows(ch, "db", "log");
        ch.answer(List.of(List.of("e1", "b1"))).answer(List.of(List.of("12")));
        assertEquals(List.of(new CdcLogRows.HeldEvent("e1", "b1")),
            rows.heldBetween(BigInteger.ONE, new BigInteger("340282366920938463463374607431768211456")));
        assertEquals(12L, rows.count());
        assertEquals(List.of("SELECT dpone_cdc_event_id, any(dpone_cdc_batch_id) FROM `db`.`log` WHERE "
            + "dpone_cdc_version >= toUInt256('1') AND dpone_cdc_version <= "
            + "toUInt256('340282366920938463463374607431768211456') GROUP BY dpone_cdc_event_id",
            "SELECT count() FROM `db`.`log` WHERE 1"), ch.statements);
    }

    @Test
    void aLogNameThatIsNoIdentifierIsRefusedBeforeAnyStatement() {
        assertThrows(IllegalArgumentException.class, () -> new CdcLogDdl(ch, "db", "log`; DROP DATABASE db; --"));
        assertThrows(IllegalArgumentException.class, () -> new CdcLogRows(ch, "", "log"));
        assertEquals(List.of(), ch.statements);
    }
}
