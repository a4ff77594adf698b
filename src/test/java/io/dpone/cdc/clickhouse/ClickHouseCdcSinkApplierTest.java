package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.cdc.SinkReceipt;
import io.dpone.cdc.StreamIdentity;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ClickHouse CDC log beyond the applier contract (which {@code io.dpone.cdc.ClickHouseSinkApplierContractTest}
 * runs against it): retried inserts, payload typing, late columns, table definition, refusals.
 */
@io.dpone.testing.EngineTest
public class ClickHouseCdcSinkApplierTest {
    public static final StreamIdentity STREAM = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id"));
    static final List<CdcEvent> EVENTS = List.of(event(CdcOperation.insert, "0x10", 1, 1),
        event(CdcOperation.update, "0x11", 1, 1));

    @TempDir
    Path dir;
    ClickHouseEndpoint ch;
    String db;

    static CdcEvent event(CdcOperation op, String position, long sequence, int orderId) {
        return new CdcEvent(op, position, sequence, "dbo", "orders", Map.of("order_id", orderId), Map.of());
    }

    static CdcEvent event(CdcOperation op, String position, long sequence, Map<String, Object> data) {
        return new CdcEvent(op, position, sequence, "dbo", "orders", data, Map.of());
    }

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("cdc_sink");
    }

    @AfterEach
    void close() {
        ch.close();
    }

    ClickHouseCdcSinkApplier applier() {
        return new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(), dir.resolve("spool"));
    }

    int rowCount() {
        if (ch.query("SELECT 1 FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = 'orders_cdc'").isEmpty()) {
            return 0;
        }
        return Integer.parseInt(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc")).get(0).get(0));
    }

    @Test
    void aRetriedInsertWithTheSameTokenLandsOnce() {
        ClickHouseCdcSinkApplier s = applier();
        s.apply(STREAM, new CdcApplyBatch("b0", "run-0", List.of(event(CdcOperation.insert, "0x1", 0, 9))));
        CdcApplyBatch batch = new CdcApplyBatch("b1", "run-1", EVENTS);
        EventIdentityIdempotency ids = new EventIdentityIdempotency();
        List<Map.Entry<String, CdcEvent>> rows = EVENTS.stream()
            .map(e -> Map.entry(ids.eventId(STREAM, e), e)).toList();
        // the event-id check is bypassed: a lost acknowledgement followed by a blind retry of the same insert
        s.insert(STREAM, batch, rows, java.util.Set.of()); // no columns known: each ADD COLUMN IF NOT EXISTS
        s.insert(STREAM, batch, rows, java.util.Set.of()); // no columns known: each ADD COLUMN IF NOT EXISTS
        assertEquals(3, rowCount());
    }

    @Test
    void rowsCarryJsonTextPayloadAndAnLsnOrderedVersion() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("order_id", 1);
        data.put("status", "paid");
        data.put("amount", new BigDecimal("19.90"));
        data.put("note", null);
        CdcEvent big = event(CdcOperation.update, "0x0000002A000001F80003", 2, data);
        CdcEvent small = event(CdcOperation.insert, "0xf", 7, Map.of("order_id", 1));
        SinkReceipt r = applier().apply(STREAM, new CdcApplyBatch("b1", "run-1", List.of(small, big)));
        assertTrue(r.passed() && r.durable(), r.message());
        List<List<String>> rows = ch.query("SELECT order_id, status, amount, note, dpone_cdc_unique_key_hash, "
            + "dpone_cdc_operation, dpone_cdc_position, dpone_cdc_sequence, toString(dpone_cdc_version), "
            + "dpone_cdc_run_id, dpone_cdc_batch_id FROM " + ClickHouseSql.table(db, "orders_cdc")
            + " ORDER BY dpone_cdc_version DESC");
        assertEquals(List.of("1", "\"paid\"", "19.90"), rows.get(0).subList(0, 3));
        assertEquals(null, rows.get(0).get(3));
        assertEquals(CdcHashes.sha256Hex("[1]"), rows.get(0).get(4));
        assertEquals(List.of("update", "0x0000002A000001F80003", "2", big.version().toString(), "run-1", "b1"),
            rows.get(0).subList(5, 11));
        assertEquals(small.version().toString(), rows.get(1).get(8));
        assertEquals(null, rows.get(1).get(1), "a column the event does not carry is NULL");
    }

    @Test
    void aColumnThatAppearsLaterIsAdded() {
        ClickHouseCdcSinkApplier s = applier();
        s.apply(STREAM, new CdcApplyBatch("b1", "run-1", List.of(event(CdcOperation.insert, "0x1", 0, 1))));
        SinkReceipt r = s.apply(STREAM, new CdcApplyBatch("b2", "run-1", List.of(event(CdcOperation.update, "0x2", 0,
            Map.of("order_id", 1, "region", "EU")))));
        assertTrue(r.passed() && r.durable(), r.message());
        assertEquals(List.of(List.of("Nullable(String)")), ch.query("SELECT type FROM system.columns WHERE database = "
            + ClickHouseSql.literal(db) + " AND table = 'orders_cdc' AND name = 'region'"));
        assertEquals(List.of(List.of("\"EU\"")), ch.query("SELECT region FROM " + ClickHouseSql.table(db, "orders_cdc")
            + " WHERE region IS NOT NULL"));
    }

    @Test
    void tableIsAppendOnlyMergeTreeWithADeduplicationWindow() {
        applier().apply(STREAM, new CdcApplyBatch("b1", "run-1", EVENTS));
        String ddl = ch.query("SELECT create_table_query FROM system.tables WHERE database = "
            + ClickHouseSql.literal(db) + " AND name = 'orders_cdc'").get(0).get(0);
        assertTrue(ddl.contains("ENGINE = MergeTree"), ddl);
        assertTrue(ddl.contains("non_replicated_deduplication_window = 1000"), ddl);
        assertTrue(ddl.contains("ORDER BY (dpone_cdc_unique_key_hash, dpone_cdc_version)"), ddl);
        assertTrue(ddl.contains("`dpone_cdc_version` UInt256"), ddl);
    }

    @Test
    void anotherStreamsLogAndBadColumnsAreRefusedWithoutWriting() {
        ClickHouseCdcSinkApplier s = applier();
        s.apply(STREAM, new CdcApplyBatch("b1", "run-1", EVENTS));
        StreamIdentity other = new StreamIdentity("other", "mssql_cdc", "dbo", "orders", "analytics.orders",
            List.of("order_id"));
        SinkReceipt r = s.apply(other, new CdcApplyBatch("b2", "run-2", List.of(event(CdcOperation.insert, "0x20", 0,
            5))));
        assertFalse(r.passed());
        assertFalse(r.durable());
        SinkReceipt bad = s.apply(STREAM, new CdcApplyBatch("b3", "run-3", List.of(event(CdcOperation.insert, "0x21",
            0, Map.of("order_id", 6, "x; DROP", 1)))));
        assertFalse(bad.passed() || bad.durable());
        assertEquals(2, rowCount());
    }

    @Test
    void heldEventsAtBothEndsOfTheBatchVersionRangeAreRecognised() {
        ClickHouseCdcSinkApplier s = applier();
        // the log holds three events of one LSN (one transaction: they share the position)
        List<CdcEvent> first = List.of(event(CdcOperation.insert, "0x5", 0, 1), event(CdcOperation.insert, "0x5", 1,
            2), event(CdcOperation.insert, "0x5", 2, 3));
        assertTrue(s.apply(STREAM, new CdcApplyBatch("b1", "run-1", first)).durable());
        // an overlapping batch whose FIRST event (its minimum version) is already held
        SinkReceipt low = s.apply(STREAM, new CdcApplyBatch("b2", "run-2", List.of(first.get(2),
            event(CdcOperation.insert, "0x6", 0, 4))));
        assertTrue(low.passed() && low.durable(), low.message());
        assertEquals(1, low.appliedRows());
        assertEquals(1, low.alreadyPresentRows());
        assertTrue(low.batchAlreadyApplied() == false);
        // a batch whose LAST event (its maximum version) is already held, with a new event below it
        SinkReceipt high = s.apply(STREAM, new CdcApplyBatch("b3", "run-3", List.of(
            event(CdcOperation.delete, "0x4", 0, 9), first.get(0))));
        assertTrue(high.passed() && high.durable(), high.message());
        assertEquals(1, high.appliedRows());
        assertEquals(1, high.alreadyPresentRows());
        // the very same batch again (a crash between apply and commit): nothing is written, the batch is known
        SinkReceipt again = s.apply(STREAM, new CdcApplyBatch("b1", "run-4", first));
        assertEquals(0, again.appliedRows());
        assertEquals(3, again.alreadyPresentRows());
        assertTrue(again.batchAlreadyApplied());
        assertEquals(5, rowCount());
    }

    @Test
    void payloadTextWithSeparatorsEscapesAndNullMarkersRoundTripsExactly() {
        String nasty = "a\tb\nc\\d\"e\r\u0000f\bg\fh\\N Grüße 😀";
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("order_id", 1);
        data.put("status", nasty);
        data.put("note", "\\N");
        data.put("region", null);
        SinkReceipt r = applier().apply(STREAM, new CdcApplyBatch("b\t1", "run\n1", List.of(event(CdcOperation.insert,
            "0x10", 0, data))));
        assertTrue(r.passed() && r.durable(), r.message());
        List<List<String>> rows = ch.query("SELECT status, note, region, dpone_cdc_run_id, dpone_cdc_batch_id, "
            + "dpone_cdc_commit_time > now64(3) - INTERVAL 1 DAY FROM " + ClickHouseSql.table(db, "orders_cdc"));
        assertEquals(1, rows.size());
        assertEquals(CdcHashes.canonicalJson(nasty), rows.get(0).get(0));
        assertEquals("\"\\\\N\"", rows.get(0).get(1), "the text \\N is JSON text, not a NULL marker");
        assertEquals(null, rows.get(0).get(2));
        assertEquals(List.of("run\n1", "b\t1", "1"), rows.get(0).subList(3, 6));
    }
}
