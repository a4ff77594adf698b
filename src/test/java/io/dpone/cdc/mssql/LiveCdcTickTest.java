package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2CdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTick;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Live ticks (the Camel route) from the H2 emulations into the embedded ClickHouse CDC log and offset table. */
@io.dpone.testing.EngineTest
class LiveCdcTickTest {
    static ClickHouseEndpoint ch;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        ch = TestEngines.clickhouse();
    }

    @AfterAll
    static void close() {
        ch.close();
    }

    static CdcRunOptions options(String backend, String db, int maxEvents) {
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(backend)
            .pipelineName("orders-live").sourceTable("dbo", "orders").targetDataset(db + ".orders_cdc")
            .uniqueKeys(List.of("order_id")).connections("mssql_test", "clickhouse_test").maxEvents(maxEvents)
            .build();
    }

    CdcRuntimeRunReport tick(CdcRunOptions o, Connection source) {
        return CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), source, ch, dir.resolve("spool")));
    }

    long count(String db, String select) {
        return Long.parseLong(ch.query("SELECT " + select + " FROM " + ClickHouseSql.table(db, "orders_cdc"))
            .get(0).get(0));
    }

    List<List<String>> materialize(String db) {
        var r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            db + ".orders_current", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
        assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
        return ch.query("SELECT order_id, status FROM " + ClickHouseSql.table(db, "orders_current")
            + " ORDER BY toInt64(order_id)");
    }

    @Test
    void cdcTicksApplyInBoundedBatchesCommitAfterDurableApplyAndMaterializeTheRightRows() throws Exception {
        String db = TestEngines.newDatabase("cdc_live");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).insert(row(2, "new", "2.00", null, null))
                .insert(row(3, "new", "3.00", null, null)).commit();
            fx.txn().update(row(1, "new", "1.00", null, null), row(1, "paid", "1.00", null, null))
                .updateKey(row(2, "new", "2.00", null, null), row(20, "moved", "2.00", null, null)).commit();
            fx.txn().delete(row(3, "new", "3.00", null, null)).commit();
            fx.txn().insert(row(3, "again", "3.50", null, null)).commit();
            CdcRunOptions o = options(SqlServerCdcReader.BACKEND, db, 3);
            long total = 9;
            long applied = 0;
            for (int i = 0; i < 10 && applied < total; i++) {
                CdcRuntimeRunReport r = tick(o, fx.connection);
                assertTrue(r.passed() && r.committed(), String.valueOf(r.blockers()));
                assertTrue(r.counts().read() <= 3);
                applied += r.counts().applied();
            }
            assertEquals(total, applied);
            assertEquals(total, count(db, "count()"));
            assertEquals(total, count(db, "uniqExact(dpone_cdc_event_id)"));
            CdcOffset committed = new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE)
                .load(o.stream()).orElseThrow();
            assertEquals(null, committed.resume());

            CdcRuntimeRunReport idle = tick(o, fx.connection);
            assertTrue(idle.passed(), String.valueOf(idle.blockers()));
            assertEquals(0, idle.counts().read());
            assertFalse(idle.committed(), "no new changes: a green no-op");
            assertEquals(total, count(db, "count()"));

            assertEquals(List.of(List.of("1", "paid"), List.of("3", "again"), List.of("20", "moved")),
                materialize(db));
        }
    }

    @Test
    void aCrashBetweenApplyAndCommitInsideOneTransactionIsNotAppliedTwice() throws Exception {
        String db = TestEngines.newDatabase("cdc_live_crash");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            H2CdcFixture.Txn big = fx.txn();
            for (int i = 1; i <= 7; i++) {
                big.insert(row(i, "new", i + ".00", null, null));
            }
            big.commit();
            CdcRunOptions o = options(SqlServerCdcReader.BACKEND, db, 3);
            assertTrue(tick(o, fx.connection).committed());
            CdcOffset before = offsets(db).load(o.stream()).orElseThrow();
            assertNotNull(before.resume(), "the batch ended inside the transaction");

            CdcTick crashing = LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection, ch, dir.resolve("spool"));
            CdcTick.Adapters a = crashing.adapters();
            CdcTick.Adapters failing = new CdcTick.Adapters(a.reader(), a.idempotency(), a.applier(),
                new CrashOnSave(a.offsets()));
            CdcRuntimeRunReport crashed = CdcTickRunner.run(new CdcTick(CdcRuntime.newRunId(), o, failing, 3));
            assertFalse(crashed.passed());
            assertFalse(crashed.committed());
            assertEquals(6, count(db, "count()"), "applied, not committed");
            assertEquals(before, offsets(db).load(o.stream()).orElseThrow());

            CdcRuntimeRunReport replay = tick(o, fx.connection);
            assertTrue(replay.passed() && replay.committed(), String.valueOf(replay.blockers()));
            assertEquals(0, replay.counts().applied());
            assertEquals(3, replay.counts().alreadyInSink());
            CdcRuntimeRunReport rest = tick(o, fx.connection);
            assertTrue(rest.passed() && rest.committed(), String.valueOf(rest.blockers()));
            assertEquals(1, rest.counts().applied());
            assertEquals(7, count(db, "count()"));
            assertEquals(7, count(db, "uniqExact(dpone_cdc_event_id)"));
        }
    }

    @Test
    void theLagIsTheSourceClockMinusTheCommitTimeOfTheCommittedPositionAndZeroOnceCaughtUp() throws Exception {
        String db = TestEngines.newDatabase("cdc_lag");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
            fx.txn().insert(row(2, "new", "2.00", null, null)).commit();
            Thread.sleep(300); // the lag under test: 300 ms of the source clock pass after the commits
            CdcRunOptions o = options(SqlServerCdcReader.BACKEND, db, 1);
            CdcRuntimeRunReport behind = tick(o, fx.connection);
            assertTrue(behind.passed() && behind.committed(), String.valueOf(behind.blockers()));
            assertTrue(behind.metrics().millisBehindSource() >= 300, "one of two transactions read, 300 ms ago: "
                + behind.metrics().millisBehindSource());
            CdcRuntimeRunReport caughtUp = tick(o, fx.connection);
            assertEquals(0, caughtUp.metrics().millisBehindSource());
        }
    }

    @Test
    void changeTrackingTicksApplyCommitAndMaterialize() throws Exception {
        String db = TestEngines.newDatabase("ct_live");
        try (H2ChangeTrackingFixture fx = new H2ChangeTrackingFixture(TestEngines.newH2Url())) {
            fx.begin();
            fx.insert(row(1, "new", "1.00", null, null));
            fx.insert(row(2, "new", "2.00", null, null));
            fx.insert(row(3, "new", "3.00", null, null));
            fx.commit();
            CdcRunOptions o = options(SqlServerChangeTrackingReader.BACKEND, db, 2);
            assertTrue(tick(o, fx.connection).committed());
            assertNotNull(offsets(db).load(o.stream()).orElseThrow().resume());
            CdcRuntimeRunReport second = tick(o, fx.connection);
            assertTrue(second.passed() && second.committed(), String.valueOf(second.blockers()));
            fx.update(row(1, "paid", "1.00", null, null));
            fx.delete(2);
            CdcRuntimeRunReport third = tick(o, fx.connection);
            assertTrue(third.passed() && third.committed(), String.valueOf(third.blockers()));
            assertEquals(2, third.counts().applied());
            CdcRuntimeRunReport idle = tick(o, fx.connection);
            assertTrue(idle.passed() && !idle.committed(), String.valueOf(idle.blockers()));
            assertEquals(5, count(db, "count()"));
            assertEquals(List.of(List.of("1", "paid"), List.of("3", "new")), materialize(db));
        }
    }

    private static ClickHouseOffsetStore offsets(String db) {
        return new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE);
    }

    /** An offset store whose save crashes (the process dies between the durable apply and the commit). */
    private record CrashOnSave(CdcOffsetStore inner) implements CdcOffsetStore {
        @Override
        public Optional<CdcOffset> load(StreamIdentity stream) {
            return inner.load(stream);
        }

        @Override
        public void commit(StreamIdentity stream, Optional<CdcOffset> expected, CdcOffset offset, String writer) {
            throw new IllegalStateException("crash injected before the commit");
        }
    }
}
