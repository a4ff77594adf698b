package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.cdc.SinkReceipt;
import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@io.dpone.testing.EngineTest
class CdcMaterializerTest {
    @TempDir
    Path dir;
    ClickHouseEndpoint ch;
    String db;
    String serving;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("cdc_log");
        serving = TestEngines.newDatabase("cdc_serving");
    }

    @AfterEach
    void close() {
        ch.close();
    }

    static CdcEvent ev(CdcOperation op, String position, long sequence, int orderId, String status) {
        return new CdcEvent(op, position, sequence, "dbo", "orders", Map.of("order_id", orderId, "status", status),
            Map.of());
    }

    void apply(String batchId, CdcEvent... events) {
        SinkReceipt r = new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(),
            dir.resolve("spool")).apply(ClickHouseCdcSinkApplierTest.STREAM,
                new CdcApplyBatch(batchId, "run-1", List.of(events)));
        assertTrue(r.passed() && r.durable(), r.message());
    }

    Map<String, Object> materialize(DeleteMode mode) {
        return new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            serving + ".orders_current", List.of("order_id"), mode), dir.resolve("out"));
    }

    List<List<String>> servingRows(String extra) {
        return ch.query("SELECT order_id, status" + extra + " FROM " + ClickHouseSql.table(serving, "orders_current")
            + " ORDER BY toInt64(order_id)");
    }

    /** Keys 1..3; key 1 gets a PK update to 10 (delete + insert at one LSN); key 2 is deleted then re-inserted. */
    void history() {
        apply("b1", ev(CdcOperation.insert, "0x10", 0, 1, "new"), ev(CdcOperation.insert, "0x10", 1, 2, "new"),
            ev(CdcOperation.insert, "0xf", 0, 3, "new"));
        apply("b2", ev(CdcOperation.delete, "0x20", 0, 1, "new"), ev(CdcOperation.insert, "0x20", 0, 10, "new"),
            ev(CdcOperation.delete, "0x21", 0, 2, "new"), ev(CdcOperation.update_before, "0x22", 0, 3, "new"),
            ev(CdcOperation.update_after, "0x22", 0, 3, "paid"));
        apply("b3", ev(CdcOperation.insert, "0x100", 0, 2, "again"), ev(CdcOperation.delete, "0x101", 0, 3, "paid"));
    }

    @Test
    void excludeDeletedKeepsTheLatestLiveRowPerKey() throws Exception {
        history();
        Map<String, Object> r = materialize(DeleteMode.exclude_deleted);
        assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
        assertEquals(List.of(List.of("2", "\"again\""), List.of("10", "\"new\"")), servingRows(""));
        assertEquals("rename", r.get("publish"));
        JsonNode json = new ObjectMapper().readTree(dir.resolve("out/cdc_materialization.json").toFile());
        assertEquals("dpone.cdc_materialization.v1", json.path("schema").asText());
        assertTrue(json.path("passed").asBoolean());
        assertEquals(10, json.path("rows_in").asLong());
        assertEquals(4, json.path("keys_in").asLong());
        assertEquals(2, json.path("keys_out").asLong());
        assertEquals(2, json.path("deletes_applied").asLong());
        assertEquals(ev(CdcOperation.insert, "0xf", 0, 3, "new").version().toString(),
            json.path("version_range").path("min").asText());
        assertEquals(ev(CdcOperation.delete, "0x101", 0, 3, "paid").version().toString(),
            json.path("version_range").path("max").asText());
        assertTrue(Files.readString(dir.resolve("out/cdc_materialization.md")).contains("passed: true"));
    }

    @Test
    void tombstoneKeepsDeletedKeysFlagged() {
        history();
        Map<String, Object> r = materialize(DeleteMode.tombstone);
        assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
        assertEquals(List.of(List.of("1", "\"new\"", "1"), List.of("2", "\"again\"", "0"),
            List.of("3", "\"paid\"", "1"), List.of("10", "\"new\"", "0")), servingRows(", dpone_cdc_deleted"));
    }

    @Test
    void reRunsAreIdempotentAndPickUpNewChangesByExchange() {
        history();
        materialize(DeleteMode.exclude_deleted);
        List<List<String>> first = servingRows(", dpone_cdc_version");
        Map<String, Object> again = materialize(DeleteMode.exclude_deleted);
        assertEquals(true, again.get("passed"));
        assertEquals("exchange", again.get("publish"));
        assertEquals(first, servingRows(", dpone_cdc_version"));
        apply("b4", ev(CdcOperation.update, "0x200", 0, 10, "shipped"));
        materialize(DeleteMode.exclude_deleted);
        assertEquals(List.of(List.of("2", "\"again\""), List.of("10", "\"shipped\"")), servingRows(""));
        assertTrue(ch.query("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.literal(serving)
            + " AND name LIKE '%stage%'").isEmpty());
    }

    @Test
    void aForeignTargetAndAMissingLogAreRefusedWithoutPublishing() {
        history();
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(serving));
        ch.execute("CREATE TABLE " + ClickHouseSql.table(serving, "orders_current")
            + " (x UInt8) ENGINE = MergeTree ORDER BY x");
        Map<String, Object> r = materialize(DeleteMode.exclude_deleted);
        assertFalse((Boolean) r.get("passed"));
        assertEquals(CdcMaterializer.TARGET_NOT_OWNED, ((io.dpone.error.Blocker) ((List<?>) r.get("blockers")).get(0))
            .code());
        assertEquals(List.of(List.of("x")), ch.query("SELECT name FROM system.columns WHERE database = "
            + ClickHouseSql.literal(serving) + " AND table = 'orders_current'"));
        Map<String, Object> missing = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
            db + ".nope", serving + ".other", List.of("order_id"), DeleteMode.tombstone), null);
        assertEquals(CdcMaterializer.LOG_MISSING, ((io.dpone.error.Blocker) ((List<?>) missing.get("blockers"))
            .get(0)).code());
        Map<String, Object> otherKeys = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
            db + ".orders_cdc", serving + ".other", List.of("order_id", "status"), DeleteMode.tombstone), null);
        assertEquals(CdcMaterializer.UNIQUE_KEY_MISMATCH, ((io.dpone.error.Blocker) ((List<?>) otherKeys
            .get("blockers")).get(0)).code());
        Map<String, Object> badKey = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
            db + ".orders_cdc", serving + ".other", List.of("customer_id"), DeleteMode.tombstone), null);
        assertEquals(CdcMaterializer.UNIQUE_KEY_MISSING, ((io.dpone.error.Blocker) ((List<?>) badKey.get("blockers"))
            .get(0)).code());
    }

    @Test
    void compoundAndTextKeysHashTheSameInSqlAsInJava() {
        io.dpone.cdc.StreamIdentity compound = new io.dpone.cdc.StreamIdentity("lines-cdc", "mssql_cdc", "dbo",
            "orders", "analytics.lines", List.of("region", "order_id"));
        SinkReceipt r = new ClickHouseCdcSinkApplier(ch, db, "lines_cdc", new EventIdentityIdempotency(),
            dir.resolve("spool")).apply(compound, new CdcApplyBatch("c1", "run-1", List.of(
                new CdcEvent(CdcOperation.insert, "0x1", 0, "dbo", "orders",
                    Map.of("region", "E\"U\u00e9", "order_id", 1, "qty", 2), Map.of()),
                new CdcEvent(CdcOperation.update, "0x2", 0, "dbo", "orders",
                    Map.of("region", "E\"U\u00e9", "order_id", 1, "qty", 3), Map.of()))));
        assertTrue(r.passed(), r.message());
        Map<String, Object> ok = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".lines_cdc",
            serving + ".lines", List.of("region", "order_id"), DeleteMode.exclude_deleted), null);
        assertEquals(true, ok.get("passed"), String.valueOf(ok.get("blockers")));
        assertEquals(List.of(List.of("3")), ch.query("SELECT qty FROM " + ClickHouseSql.table(serving, "lines")));
        Map<String, Object> swapped = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(
            db + ".lines_cdc", serving + ".lines", List.of("order_id", "region"), DeleteMode.exclude_deleted), null);
        assertEquals(CdcMaterializer.UNIQUE_KEY_MISMATCH, ((io.dpone.error.Blocker) ((List<?>) swapped
            .get("blockers")).get(0)).code());
    }
}
