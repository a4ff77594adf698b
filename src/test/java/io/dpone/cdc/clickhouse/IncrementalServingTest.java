package io.dpone.cdc.clickhouse;

import static io.dpone.cdc.clickhouse.TypedCdcLogTest.column;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.cdc.SinkReceipt;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer.Compact;
import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.cdc.clickhouse.CdcMaterializer.Incremental;
import io.dpone.cdc.clickhouse.CdcMaterializer.Mode;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.error.Blocker;
import io.dpone.source.SourceColumn;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --mode incremental}: on seeded random histories the served view holds exactly the rows (and column types)
 * the rebuild publishes, in both delete modes, typed and JSON-text logs, with and without a handed-over snapshot;
 * re-applying a range changes nothing; a kill between a batch's insert and its version commit applies it once;
 * un-merged parts with an older version on top read correctly; tombstones are purged after their retention.
 */
@io.dpone.testing.EngineTest
class IncrementalServingTest {
    static final StreamIdentity STREAM = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id"));
    static final List<SourceColumn> COLUMNS = List.of(column("order_id", "int", false),
        column("status", "nvarchar(20)", false), column("amount", "decimal(10,2)", true));

    @TempDir
    Path dir;
    ClickHouseEndpoint ch;
    String db;
    String serving;
    int batchSeq;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("incr_log");
        serving = TestEngines.newDatabase("incr_serving");
    }

    @AfterEach
    void close() {
        ch.close();
    }

    // ---- history -------------------------------------------------------------------------------------------------

    static CdcEvent ev(CdcOperation op, long position, long sequence, int id, String status, String amount) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("order_id", id);
        if (status != null) { // a delete of Change Tracking carries only its keys
            data.put("status", status);
            data.put("amount", amount == null ? null : new java.math.BigDecimal(amount));
        }
        return new CdcEvent(op, "0x" + Long.toHexString(position), sequence, "dbo", "orders", data, Map.of());
    }

    void apply(boolean typed, List<CdcEvent> events) {
        SinkReceipt r = new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(),
            dir.resolve("spool")).apply(STREAM, new CdcApplyBatch("b" + (++batchSeq), "run-1", events,
                typed ? COLUMNS : List.of()));
        assertTrue(r.passed() && r.durable(), r.message());
    }

    /**
     * A random history: transactions (one position each) of inserts, updates (plain or before/after images),
     * deletes (with or without the row), primary-key changes (delete + insert at one position) and one key updated
     * many times in one transaction; written in batches of a few transactions. Calls {@code check} after some
     * batches.
     */
    void randomHistory(long seed, boolean typed, long firstPosition, TreeSet<Integer> live, Runnable check) {
        Random rnd = new Random(seed);
        int nextKey = live.isEmpty() ? 1 : live.last() + 1;
        long position = firstPosition;
        int txns = 20 + rnd.nextInt(16);
        List<CdcEvent> batch = new ArrayList<>();
        for (int t = 0; t < txns; t++) {
            position += 1 + rnd.nextInt(3);
            long seq = 0;
            int ops = 1 + rnd.nextInt(5);
            for (int i = 0; i < ops; i++) {
                int kind = live.isEmpty() ? 0 : rnd.nextInt(6);
                String status = "s" + rnd.nextInt(1000);
                String amount = rnd.nextInt(4) == 0 ? null : rnd.nextInt(100000) + "." + rnd.nextInt(10) + "5";
                switch (kind) {
                    case 0 -> { // insert
                        int k = rnd.nextInt(3) == 0 && nextKey > 3 ? rnd.nextInt(nextKey) : nextKey++;
                        if (live.contains(k)) {
                            k = nextKey++;
                        }
                        batch.add(ev(CdcOperation.insert, position, seq++, k, status, amount));
                        live.add(k);
                    }
                    case 1 -> batch.add(ev(CdcOperation.update, position, seq++, pick(rnd, live), status, amount));
                    case 2 -> { // before/after images at one sequence
                        int k = pick(rnd, live);
                        batch.add(ev(CdcOperation.update_before, position, seq, k, "before", null));
                        batch.add(ev(CdcOperation.update_after, position, seq++, k, status, amount));
                    }
                    case 3 -> { // delete, with the row or only the key
                        int k = pick(rnd, live);
                        batch.add(ev(CdcOperation.delete, position, seq++, k, rnd.nextBoolean() ? "gone" : null,
                            null));
                        live.remove(k);
                    }
                    case 4 -> { // primary-key change: delete the old key, insert the new one at the same position
                        int k = pick(rnd, live);
                        int n = nextKey++;
                        batch.add(ev(CdcOperation.delete, position, seq, k, "moved", null));
                        batch.add(ev(CdcOperation.insert, position, seq++, n, status, amount));
                        live.remove(k);
                        live.add(n);
                    }
                    default -> { // one key updated many times in one transaction
                        int k = pick(rnd, live);
                        for (int u = 0; u < 2 + rnd.nextInt(6); u++) {
                            batch.add(ev(CdcOperation.update, position, seq++, k, status + "." + u, amount));
                        }
                    }
                }
            }
            if (rnd.nextInt(4) == 0 || t == txns - 1) {
                apply(typed, batch);
                batch = new ArrayList<>();
                if (rnd.nextInt(3) == 0 || t == txns - 1) {
                    check.run();
                }
            }
        }
    }

    static int pick(Random rnd, TreeSet<Integer> live) {
        List<Integer> keys = new ArrayList<>(live);
        return keys.get(rnd.nextInt(keys.size()));
    }

    // ---- materialization -----------------------------------------------------------------------------------------

    Map<String, Object> incremental(String table, DeleteMode mode, Incremental settings) {
        Map<String, Object> r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            serving + "." + table, List.of("order_id"), mode, Mode.incremental, settings), null);
        assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
        return r;
    }

    Map<String, Object> rebuild(String table, DeleteMode mode) {
        Map<String, Object> r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            serving + "." + table, List.of("order_id"), mode), null);
        assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
        return r;
    }

    static Incremental settings(long batchRows, Compact compact, String view) {
        return new Incremental(batchRows, Duration.ofDays(7), compact, 32, 0.25, view);
    }

    List<List<String>> rows(String table) {
        return ch.query("SELECT * FROM " + ClickHouseSql.table(serving, table) + " ORDER BY order_id");
    }

    List<List<String>> columns(String table) {
        return ch.query("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.literal(serving)
            + " AND table = " + ClickHouseSql.literal(table) + " ORDER BY position");
    }

    long count(String sql) {
        return Long.parseLong(ch.query(sql).get(0).get(0));
    }

    String versions(String table) {
        return ClickHouseSql.table(serving, table + IncrementalServing.VERSIONS_SUFFIX);
    }

    // ---- tests ---------------------------------------------------------------------------------------------------

    @Test
    void incrementalEqualsRebuildOnSeededRandomHistories() {
        for (long seed = 1; seed <= 4; seed++) {
            boolean typed = seed != 3;
            boolean snapshot = typed && seed % 2 == 0;
            db = TestEngines.newDatabase("incr_log");
            serving = TestEngines.newDatabase("incr_serving");
            TreeSet<Integer> live = new TreeSet<>();
            long first = 0x10;
            if (snapshot) {
                // a handed-over snapshot at position P: its rows merge under the changes after P
                ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(db));
                ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "orders_snap") + " (order_id Int32, status "
                    + "String, amount Nullable(Decimal(10, 2))) ENGINE = MergeTree ORDER BY order_id");
                ch.execute("INSERT INTO " + ClickHouseSql.table(db, "orders_snap") + " SELECT number + 1, "
                    + "concat('snap', toString(number)), if(number % 3 = 0, NULL, toDecimal64(number, 2)) "
                    + "FROM numbers(12)");
                for (int k = 1; k <= 12; k++) {
                    live.add(k);
                }
                new CdcSnapshots(ch, db).record(db + ".orders_cdc", new CdcSnapshots.Snapshot(db + ".orders_snap",
                    "mssql_cdc", "0x40", "snap-run-1"));
                first = 0x40;
            }
            Random rnd = new Random(seed * 31);
            final long s = seed;
            randomHistory(seed, typed, first, live, () -> {
                Incremental inc = settings(List.of(2L, 5L, 1000L).get(rnd.nextInt(3)),
                    rnd.nextBoolean() ? Compact.never : Compact.always, s % 2 == 0 ? "auto" : "argmax");
                for (DeleteMode mode : DeleteMode.values()) {
                    incremental("i_" + mode, mode, inc);
                    rebuild("r_" + mode, mode);
                    assertEquals(columns("r_" + mode), columns("i_" + mode), "seed " + s + " " + mode);
                    assertEquals(rows("r_" + mode), rows("i_" + mode), "seed " + s + " " + mode);
                }
            });
            // the model's live keys are what both serve in exclude_deleted mode
            List<String> served = ch.query("SELECT toString(order_id) FROM " + ClickHouseSql.table(serving,
                "i_exclude_deleted") + " ORDER BY toInt64(order_id)").stream().map(r -> r.get(0)).toList();
            assertEquals(live.stream().map(String::valueOf).toList(), served, "seed " + s);
        }
    }

    /** Keys 1..3 inserted, 2 updated twice, 3 deleted (only its key), 1 moved to 10. */
    void smallHistory() {
        apply(true, List.of(ev(CdcOperation.insert, 0x10, 0, 1, "new", "1.00"),
            ev(CdcOperation.insert, 0x10, 1, 2, "new", null), ev(CdcOperation.insert, 0x10, 2, 3, "new", "3.00")));
        apply(true, List.of(ev(CdcOperation.update, 0x11, 0, 2, "paid", "2.50"),
            ev(CdcOperation.update, 0x11, 1, 2, "shipped", "2.50"), ev(CdcOperation.delete, 0x12, 0, 3, null, null)));
        apply(true, List.of(ev(CdcOperation.delete, 0x13, 0, 1, "new", "1.00"),
            ev(CdcOperation.insert, 0x13, 0, 10, "new", "1.00")));
    }

    @Test
    void reApplyingTheSameRangeChangesNothing() {
        smallHistory();
        Map<String, Object> first = incremental("t", DeleteMode.tombstone, settings(2, Compact.never, "auto"));
        assertEquals("first_run", first.get("reseed"));
        new TableAdmin(ch).stopMerges(serving, "t" + IncrementalServing.VERSIONS_SUFFIX);
        apply(true, List.of(ev(CdcOperation.update, 0x20, 0, 10, "paid", "1.00"),
            ev(CdcOperation.insert, 0x20, 1, 11, "new", null)));
        Map<String, Object> second = incremental("t", DeleteMode.tombstone, settings(1, Compact.never, "auto"));
        assertNull(second.get("reseed"));
        assertEquals(2L, second.get("rows_in"));
        assertEquals(2, second.get("batches"));
        List<List<String>> served = rows("t");
        long stored = count("SELECT count() FROM " + versions("t"));
        // roll the state back to before the second run: the same range is applied again
        String from = (String) ((Map<?, ?>) second.get("applied_version")).get("from");
        rollBackState("t", from);
        Map<String, Object> again = incremental("t", DeleteMode.tombstone, settings(1, Compact.never, "auto"));
        assertEquals(second.get("applied_version"), again.get("applied_version"));
        assertEquals(served, rows("t"));
        assertEquals(stored, count("SELECT count() FROM " + versions("t")), "the re-applied batches landed once");
        // nothing new: nothing applied, nothing changes
        Map<String, Object> idle = incremental("t", DeleteMode.tombstone, settings(1, Compact.never, "auto"));
        assertEquals(0L, idle.get("rows_in"));
        assertEquals(0, idle.get("batches"));
        assertEquals(served, rows("t"));
        rebuild("r", DeleteMode.tombstone);
        assertEquals(rows("r"), rows("t"));
    }

    /** Records {@code applied} as the newest state of the target (what a lost commit leaves behind). */
    void rollBackState(String table, String applied) {
        var state = ch.query("SELECT argMax(versions_uuid, state_version), argMax(snapshot_run_id, state_version), "
            + "argMax(delete_mode, state_version), max(state_version) FROM " + ClickHouseSql.table(serving,
            IncrementalServing.STATE_TABLE) + " WHERE target_dataset = " + ClickHouseSql.literal(serving + "." + table))
            .get(0);
        ch.execute("INSERT INTO " + ClickHouseSql.table(serving, IncrementalServing.STATE_TABLE) + " SELECT "
            + ClickHouseSql.literal(serving + "." + table) + ", " + ClickHouseSql.literal(db + ".orders_cdc") + ", "
            + ClickHouseSql.literal(state.get(0)) + ", " + ClickHouseSql.literal(applied) + ", "
            + ClickHouseSql.literal(state.get(1)) + ", " + ClickHouseSql.literal(state.get(2)) + ", now64(3), "
            + (Long.parseLong(state.get(3)) + 1));
    }

    @Test
    void aKillBetweenInsertAndVersionCommitAppliesTheBatchOnce() {
        smallHistory();
        incremental("t", DeleteMode.exclude_deleted, settings(100, Compact.never, "auto"));
        new TableAdmin(ch).stopMerges(serving, "t" + IncrementalServing.VERSIONS_SUFFIX);
        apply(true, List.of(ev(CdcOperation.update, 0x20, 0, 10, "paid", "1.00"),
            ev(CdcOperation.delete, 0x21, 0, 2, null, null), ev(CdcOperation.insert, 0x22, 0, 12, "new", "9.99")));
        long storedBefore = count("SELECT count() FROM " + versions("t"));
        String appliedBefore = appliedVersion("t");
        RuntimeException killed = new RuntimeException("killed after the insert");
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> new CdcMaterializer(ch, () -> {
            throw killed;
        }).materialize(new CdcMaterializer.Options(db + ".orders_cdc", serving + ".t", List.of("order_id"),
            DeleteMode.exclude_deleted, Mode.incremental, settings(100, Compact.never, "auto")), null));
        assertEquals(killed, thrown);
        assertEquals(appliedBefore, appliedVersion("t"), "the version was not committed");
        long storedAfterKill = count("SELECT count() FROM " + versions("t"));
        assertEquals(storedBefore + 3, storedAfterKill, "the batch's insert was durable: " + ch.query("SELECT order_id, "
            + "dpone_cdc_operation, dpone_cdc_version FROM " + versions("t")));
        Map<String, Object> resumed = incremental("t", DeleteMode.exclude_deleted,
            settings(100, Compact.never, "auto"));
        assertEquals(3L, resumed.get("rows_in"));
        assertEquals(storedAfterKill, count("SELECT count() FROM " + versions("t")), "applied once");
        assertNotEquals(appliedBefore, appliedVersion("t"));
        rebuild("r", DeleteMode.exclude_deleted);
        assertEquals(rows("r"), rows("t"));
    }

    String appliedVersion(String table) {
        return ch.query("SELECT argMax(applied_version, state_version) FROM " + ClickHouseSql.table(serving,
            IncrementalServing.STATE_TABLE) + " WHERE target_dataset = " + ClickHouseSql.literal(serving + "." + table))
            .get(0).get(0);
    }

    @Test
    void unmergedPartsWithAnOlderVersionOnTopReadCorrectly() {
        smallHistory();
        for (String view : List.of("final", "argmax")) {
            String t = "t_" + view;
            incremental("tomb_" + view, DeleteMode.tombstone, settings(100, Compact.always, view));
            List<List<String>> tombstones = rows("tomb_" + view);
            new TableAdmin(ch).stopMerges(serving, "tomb_" + view + IncrementalServing.VERSIONS_SUFFIX);
            ch.execute("INSERT INTO " + versions("tomb_" + view) + " (order_id, status, amount, "
                + "dpone_cdc_unique_key_hash, dpone_cdc_operation, dpone_cdc_position, dpone_cdc_sequence, "
                + "dpone_cdc_version, dpone_cdc_commit_time, dpone_cdc_deleted) SELECT 3, 'stale', NULL, 'h', "
                + "'insert', '0x1', 0, toUInt256(2), now64(3), 0");
            assertEquals(tombstones, rows("tomb_" + view), view);
            incremental(t, DeleteMode.exclude_deleted, settings(100, Compact.always, view));
            List<List<String>> served = rows(t);
            new TableAdmin(ch).stopMerges(serving, t + IncrementalServing.VERSIONS_SUFFIX);
            // newest parts holding older versions: a stale live row of key 2, a stale live row of deleted key 3,
            // a stale delete of live key 10
            ch.execute("INSERT INTO " + versions(t) + " (order_id, status, amount, dpone_cdc_unique_key_hash, "
                + "dpone_cdc_operation, dpone_cdc_position, dpone_cdc_sequence, dpone_cdc_version, "
                + "dpone_cdc_commit_time, dpone_cdc_deleted) SELECT 2, 'stale', NULL, 'h', 'update', '0x1', 0, "
                + "toUInt256(1), now64(3), 0");
            ch.execute("INSERT INTO " + versions(t) + " (order_id, status, amount, dpone_cdc_unique_key_hash, "
                + "dpone_cdc_operation, dpone_cdc_position, dpone_cdc_sequence, dpone_cdc_version, "
                + "dpone_cdc_commit_time, dpone_cdc_deleted) SELECT 3, 'stale', NULL, 'h', 'insert', '0x1', 0, "
                + "toUInt256(2), now64(3), 0");
            ch.execute("INSERT INTO " + versions(t) + " (order_id, status, amount, dpone_cdc_unique_key_hash, "
                + "dpone_cdc_operation, dpone_cdc_position, dpone_cdc_sequence, dpone_cdc_version, "
                + "dpone_cdc_commit_time, dpone_cdc_deleted) SELECT 10, '', NULL, 'h', 'delete', '0x1', 0, "
                + "toUInt256(3), now64(3), 1");
            assertTrue(count("SELECT count() FROM system.parts WHERE database = " + ClickHouseSql.literal(serving)
                + " AND table = " + ClickHouseSql.literal(t + IncrementalServing.VERSIONS_SUFFIX) + " AND active") >= 4);
            assertEquals(served, rows(t), view);
            assertEquals(List.of(List.of("2", "shipped"), List.of("10", "new")), ch.query("SELECT order_id, status "
                + "FROM " + ClickHouseSql.table(serving, t) + " ORDER BY order_id"), view);
        }
    }

    @Test
    void tombstonesArePurgedAfterTheirRetentionAtCompaction() {
        smallHistory();
        Map<String, Object> kept = incremental("t", DeleteMode.tombstone,
            new Incremental(100, Duration.ofDays(7), Compact.always, 32, 0.25, "auto"));
        assertEquals(0L, ((Map<?, ?>) kept.get("compaction")).get("rows_purged"));
        assertEquals(List.of(List.of("1", "1"), List.of("2", "0"), List.of("3", "1"), List.of("10", "0")),
            ch.query("SELECT order_id, dpone_cdc_deleted FROM " + ClickHouseSql.table(serving, "t")
                + " ORDER BY order_id"));
        Map<String, Object> purged = incremental("t", DeleteMode.tombstone,
            new Incremental(100, Duration.ZERO, Compact.always, 32, 0.25, "auto"));
        Map<?, ?> compaction = (Map<?, ?>) purged.get("compaction");
        assertEquals(true, compaction.get("ran"));
        assertEquals(2L, compaction.get("rows_purged"));
        assertEquals(List.of(List.of("2", "0"), List.of("10", "0")), ch.query("SELECT order_id, dpone_cdc_deleted "
            + "FROM " + ClickHouseSql.table(serving, "t") + " ORDER BY order_id"));
        assertEquals(0, count("SELECT count() FROM " + versions("t") + " WHERE order_id IN (1, 3)"),
            "every row of a purged key is gone, so no older version can resurface");
        assertEquals(1L, ((Map<?, ?>) purged.get("parts")).get("active_parts"));
        // a later re-insert of a purged key is served
        apply(true, List.of(ev(CdcOperation.insert, 0x30, 0, 3, "back", null)));
        incremental("t", DeleteMode.tombstone, new Incremental(100, Duration.ZERO, Compact.never, 32, 0.25, "auto"));
        assertEquals(List.of(List.of("2"), List.of("3"), List.of("10")), ch.query("SELECT order_id FROM "
            + ClickHouseSql.table(serving, "t") + " ORDER BY order_id"));
    }

    @Test
    void compactionRunsOnItsThresholdsAndReportsParts() {
        smallHistory();
        Map<String, Object> r = incremental("t", DeleteMode.exclude_deleted,
            new Incremental(1, Duration.ofDays(7), Compact.auto, 2, 1.0, "auto"));
        new TableAdmin(ch).stopMerges(serving, "t" + IncrementalServing.VERSIONS_SUFFIX);
        assertEquals(8, r.get("batches"), "one batch per version");
        apply(true, List.of(ev(CdcOperation.update, 0x20, 0, 10, "a", null)));
        apply(true, List.of(ev(CdcOperation.update, 0x21, 0, 10, "b", null)));
        apply(true, List.of(ev(CdcOperation.update, 0x22, 0, 2, "c", null)));
        Map<String, Object> quiet = incremental("t", DeleteMode.exclude_deleted,
            new Incremental(1, Duration.ofDays(7), Compact.never, 2, 1.0, "auto"));
        assertFalse((Boolean) ((Map<?, ?>) quiet.get("compaction")).get("ran"));
        long parts = (Long) ((Map<?, ?>) quiet.get("parts")).get("active_parts");
        assertTrue(parts > 2, "parts " + parts);
        new TableAdmin(ch).startMerges(serving, "t" + IncrementalServing.VERSIONS_SUFFIX);
        Map<String, Object> compacted = incremental("t", DeleteMode.exclude_deleted,
            new Incremental(1, Duration.ofDays(7), Compact.auto, 2, 1.0, "auto"));
        Map<?, ?> c = (Map<?, ?>) compacted.get("compaction");
        assertEquals("parts", c.get("reason"));
        assertEquals(1L, ((Map<?, ?>) compacted.get("parts")).get("active_parts"));
        assertEquals(0L, ((Map<?, ?>) compacted.get("parts")).get("rows_outside_largest_part"));
        assertEquals(List.of(List.of("2", "c"), List.of("10", "b")), ch.query("SELECT order_id, status FROM "
            + ClickHouseSql.table(serving, "t") + " ORDER BY order_id"));
    }

    @Test
    void modesHandOverTheTargetAndReseedWhenTheStateNoLongerMatches() {
        smallHistory();
        rebuild("t", DeleteMode.exclude_deleted);
        List<List<String>> rebuilt = rows("t");
        Map<String, Object> r = incremental("t", DeleteMode.exclude_deleted, settings(100, Compact.never, "auto"));
        assertEquals("view_exchanged", r.get("publish"));
        assertEquals(rebuilt, rows("t"));
        assertEquals("view_unchanged", incremental("t", DeleteMode.exclude_deleted,
            settings(100, Compact.never, "auto")).get("publish"));
        // another delete mode: the versioned table is rebuilt (the applied rows were checked for the other mode)
        Map<String, Object> tomb = incremental("t", DeleteMode.tombstone, settings(100, Compact.never, "auto"));
        assertEquals("delete_mode_changed", tomb.get("reseed"));
        assertEquals("view_replaced", tomb.get("publish"));
        // the versioned table replaced behind the state's back: rebuilt from the log
        ch.execute("DROP TABLE " + versions("t"));
        Map<String, Object> again = incremental("t", DeleteMode.exclude_deleted,
            settings(100, Compact.never, "auto"));
        assertEquals("first_run", again.get("reseed"));
        assertEquals(rebuilt, rows("t"));
        // back to the rebuild: the view is exchanged for a table and the versioned table goes
        assertEquals("exchange", rebuild("t", DeleteMode.exclude_deleted).get("publish"));
        assertEquals(rebuilt, rows("t"));
        assertFalse(new TableAdmin(ch).exists(serving, "t" + IncrementalServing.VERSIONS_SUFFIX));
        assertEquals("first_run", incremental("t", DeleteMode.exclude_deleted,
            settings(100, Compact.never, "auto")).get("reseed"));
        assertEquals(rebuilt, rows("t"));
    }

    @Test
    void aForeignVersionedTableAndAnUnknownViewAreRefused() {
        smallHistory();
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(serving) + " ENGINE = Atomic");
        ch.execute("CREATE TABLE " + versions("t") + " (x UInt8) ENGINE = MergeTree ORDER BY x");
        Map<String, Object> r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            serving + ".t", List.of("order_id"), DeleteMode.exclude_deleted, Mode.incremental, null), null);
        assertEquals(false, r.get("passed"));
        assertEquals(CdcMaterializer.TARGET_NOT_OWNED, ((Blocker) ((List<?>) r.get("blockers")).get(0)).code());
        Map<String, Object> bad = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            serving + ".u", List.of("order_id"), DeleteMode.tombstone, Mode.incremental,
            settings(100, Compact.never, "fastest")), null);
        assertEquals(CdcMaterializer.INVALID_ARGUMENT, ((Blocker) ((List<?>) bad.get("blockers")).get(0)).code());
        assertFalse(new TableAdmin(ch).exists(serving, "u"));
        Map<String, Object> zero = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            serving + ".u", List.of("order_id"), DeleteMode.tombstone, Mode.incremental,
            settings(0, Compact.never, "auto")), null);
        assertEquals(CdcMaterializer.INVALID_ARGUMENT, ((Blocker) ((List<?>) zero.get("blockers")).get(0)).code());
    }
}
