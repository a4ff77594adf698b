package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2CdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema changes without stopping (docs/cdc.md, "Schema changes"): a table that changed shape gets a second capture
 * instance, and the live stream (H2 CDC emulation into the embedded ClickHouse) hands over to it at its start LSN
 * without a gap or a duplicate; added columns arrive in the log and the serving table, a widened column is altered,
 * a dropped one stops being written, and a narrowing or a key change is a typed blocker with its way out.
 */
@io.dpone.testing.EngineTest
class CaptureInstanceHandOverTest {
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

    static CdcRunOptions options(String db, int maxEvents) {
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(SqlServerCdcReader.BACKEND)
            .pipelineName("orders-live").sourceTable("dbo", "orders").targetDataset(db + ".orders_cdc")
            .uniqueKeys(List.of("order_id")).connections("mssql_test", "clickhouse_test").maxEvents(maxEvents)
            .build();
    }

    CdcRuntimeRunReport tick(CdcRunOptions o, H2CdcFixture fx) {
        return CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection, ch,
            dir.resolve("spool")));
    }

    /** Ticks until a tick reads nothing; every tick must pass. Returns the changes applied. */
    long drain(CdcRunOptions o, H2CdcFixture fx) {
        long applied = 0;
        for (int i = 0; i < 50; i++) {
            CdcRuntimeRunReport r = tick(o, fx);
            assertTrue(r.passed(), String.valueOf(r.blockers()));
            assertTrue(r.counts().read() <= o.maxEvents());
            if (r.counts().read() == 0) {
                return applied;
            }
            applied += r.counts().applied();
        }
        throw new AssertionError("the stream never caught up");
    }

    long count(String db, String select) {
        return Long.parseLong(ch.query("SELECT " + select + " FROM " + ClickHouseSql.table(db, "orders_cdc"))
            .get(0).get(0));
    }

    static CdcOffset checkpoint(String db, CdcRunOptions o) {
        return new ClickHouseOffsetStore(ch, db, ClickHouseCdcAdapters.OFFSETS_TABLE).load(o.stream()).orElseThrow();
    }

    /** Materializes the log into {@code db.orders_current} and returns the given columns, one text row per key. */
    List<String> served(String db, List<String> columns) {
        var r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            db + ".orders_current", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
        assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
        List<String> out = new ArrayList<>();
        for (List<String> row : ch.query("SELECT " + String.join(", ", columns.stream()
            .map(c -> "toString(" + ClickHouseSql.id(c) + ")").toList()) + " FROM "
            + ClickHouseSql.table(db, "orders_current") + " ORDER BY toInt64(order_id)")) {
            out.add(text(row));
        }
        return out;
    }

    /** The source table's rows as the same text. */
    static List<String> source(H2CdcFixture fx, List<String> columns) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = fx.connection.createStatement().executeQuery("SELECT " + String.join(", ", columns)
            + " FROM dbo.orders ORDER BY order_id")) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns.size(); i++) {
                    Object v = rs.getObject(i);
                    row.add(v == null ? null : v.toString());
                }
                out.add(text(row));
            }
        }
        return out;
    }

    /** Values joined by '|', NULL as \N, decimals without trailing zeros (ClickHouse prints 1 for 1.00). */
    static String text(List<String> row) {
        List<String> parts = new ArrayList<>();
        for (String v : row) {
            parts.add(v == null ? "\\N" : v.matches("-?[0-9]+\\.[0-9]+") ? new BigDecimal(v).stripTrailingZeros()
                .toPlainString() : v);
        }
        return String.join("|", parts);
    }

    List<List<String>> logColumn(String db, String name) {
        return ch.query("SELECT type, comment FROM system.columns WHERE database = " + ClickHouseSql.literal(db)
            + " AND table = 'orders_cdc' AND name = " + ClickHouseSql.literal(name));
    }

    @Test
    void anAddedColumnArrivesThroughASecondCaptureInstanceWhileTheStreamKeepsRunning() throws Exception {
        String db = TestEngines.newDatabase("cdc_ci_add");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).insert(row(2, "new", "2.00", null, null))
                .insert(row(3, "new", "3.00", null, null)).commit();
            CdcRunOptions o = options(db, 2);
            assertEquals(3, drain(o, fx));

            fx.addColumn("channel", "NVARCHAR(20)");
            // before the second instance exists: only the first captures it (without the new column)
            fx.txn().update(row(1, "new", "1.00", null, null), row(1, "paid", "1.00", null, null)).commit();
            byte[] start = fx.enableCaptureInstance("dbo_orders_v2");
            // from its start LSN on both instances capture; the stream must read each change once
            byte[] first = fx.txn().insert(row(row(4, "new", "4.00", null, null), "web"))
                .update(row(2, "new", "2.00", null, null), row(row(2, "paid", "2.00", null, null), "shop")).commit();
            assertArrayEquals(start, first, "the first change after enabling is at the instance's start LSN");
            fx.txn().delete(row(3, "new", "3.00", null, null)).commit();

            // update 1 (2 rows, old instance), insert 4 + update 2 (3 rows, new), delete 3 (1 row, new)
            assertEquals(6, drain(o, fx));
            assertEquals(9, count(db, "count()"));
            assertEquals(9, count(db, "uniqExact(dpone_cdc_event_id)"), "no change read from both instances");
            assertEquals(9, count(db, "uniqExact(dpone_cdc_version)"));
            assertEquals("dbo_orders_v2", checkpoint(db, o).captureInstance(), "the checkpoint records the instance");
            assertEquals(List.of(List.of("Nullable(String)", "dpone.cdc_column.v1 mssql=nvarchar(max) nullable=1")),
                logColumn(db, "channel"));
            assertEquals(List.of(List.of("web")), ch.query("SELECT channel FROM " + ClickHouseSql.table(db,
                "orders_cdc") + " WHERE order_id = 4"));
            List<String> columns = List.of("order_id", "status", "amount", "channel");
            List<String> expected = source(fx, columns);
            assertEquals(List.of("1|paid|1|\\N", "2|paid|2|shop", "4|new|4|web"), expected);
            assertEquals(expected, served(db, columns), "materialized equals source");

            // once the stream is on the new instance the old one can go; the checkpoint keeps the stream on it
            fx.disableCaptureInstance(H2CdcFixture.CAPTURE_INSTANCE);
            fx.txn().update(row(row(4, "new", "4.00", null, null), "web"), row(row(4, "paid", "4.00", null, null),
                "app")).commit();
            assertEquals(2, drain(o, fx));
            assertEquals(source(fx, columns), served(db, columns));
            assertTrue(source(fx, columns).contains("4|paid|4|app"));
        }
    }

    @Test
    void aWidenedColumnIsAlteredAndADroppedOneStopsBeingWritten() throws Exception {
        String db = TestEngines.newDatabase("cdc_ci_widen");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", "gift", null)).insert(row(2, "new", "2.00", "wrap", null)).commit();
            CdcRunOptions o = options(db, 100);
            assertEquals(2, drain(o, fx));
            assertEquals("Nullable(Decimal(18, 2))", logColumn(db, "amount").get(0).get(0));

            fx.alterColumn("amount", "DECIMAL(24,4)");
            fx.dropColumn("note");
            fx.enableCaptureInstance("dbo_orders_v2");
            // columns now: order_id, status, amount, updated_at
            fx.txn().update(new Object[] {1, "new", new BigDecimal("1.0000"), null},
                new Object[] {1, "paid", new BigDecimal("1234.5678"), null}).commit();
            fx.txn().insert(new Object[] {3, "new", new BigDecimal("3.5000"), null}).commit();

            assertEquals(3, drain(o, fx));
            assertEquals(List.of(List.of("Nullable(Decimal(24, 4))", "dpone.cdc_column.v1 mssql=decimal(24,4) "
                + "nullable=1")), logColumn(db, "amount"));
            assertEquals(List.of(List.of("Nullable(String)", "dpone.cdc_column.v1 mssql=nvarchar(max) nullable=1")),
                logColumn(db, "note"), "a dropped column stays in the log");
            assertEquals("0", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc")
                + " WHERE order_id = 3 AND note IS NOT NULL").get(0).get(0));
            List<String> columns = List.of("order_id", "status", "amount");
            assertEquals(List.of("1|paid|1234.5678", "2|new|2", "3|new|3.5"), source(fx, columns));
            assertEquals(source(fx, columns), served(db, columns), "materialized equals source");
            assertEquals(List.of(List.of("1", "\\N"), List.of("2", "wrap"), List.of("3", "\\N")),
                ch.query("SELECT toString(order_id), ifNull(note, '\\\\N') FROM " + ClickHouseSql.table(db,
                    "orders_current") + " ORDER BY order_id"), "kept: written until the drop, NULL after");
        }
    }

    @Test
    void aNarrowedColumnOrAChangedKeyIsATypedBlockerThatSaysTheWayOut() throws Exception {
        for (String[] change : new String[][] {{"amount", "DECIMAL(10,2)"}, {"order_id", "BIGINT"}}) {
            String db = TestEngines.newDatabase("cdc_ci_narrow");
            try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
                fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
                CdcRunOptions o = options(db, 100);
                assertEquals(1, drain(o, fx));
                CdcOffset before = checkpoint(db, o);

                fx.alterColumn(change[0], change[1]);
                fx.enableCaptureInstance("dbo_orders_v2");
                fx.txn().insert(row(2, "new", "2.00", null, null)).commit();
                for (int attempt = 0; attempt < 2; attempt++) {
                    CdcRuntimeRunReport r = tick(o, fx);
                    assertFalse(r.passed(), change[0]);
                    assertFalse(r.committed());
                    assertEquals(CdcBlockers.SCHEMA_CHANGED, r.blockers().get(0).code(), change[0]);
                    assertEquals("source.columns." + change[0], r.blockers().get(0).subject());
                    String message = r.blockers().get(0).message();
                    assertTrue(message.contains("hand the table over anew") && message.contains("dpone run MANIFEST"),
                        message);
                    assertEquals(1, count(db, "count()"), "nothing was applied");
                    assertEquals(before, checkpoint(db, o), "the checkpoint did not move");
                    assertNull(checkpoint(db, o).captureInstance());
                }
            }
        }
    }

    /** The capture instances {@code cdc.change_tables} lists, by name. */
    static List<String> instances(H2CdcFixture fx) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = fx.connection.createStatement().executeQuery("SELECT capture_instance FROM "
            + "cdc.change_tables ORDER BY start_lsn")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /**
     * --allow-capture-instance-ddl: without it a table that gained a column keeps being read from its only capture
     * instance (nothing created, the column not captured); with it the tick creates the second instance itself
     * (sys.sp_cdc_enable_table with the first one's role, net-changes, index and filegroup settings, every column of
     * the table) and the stream hands over to it at its start LSN as it does to one the operator created.
     */
    @Test
    void withTheFlagTheTickCreatesTheSecondCaptureInstanceAndHandsOverWithoutItNothingIsCreated() throws Exception {
        String db = TestEngines.newDatabase("cdc_ci_ddl");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.connection.createStatement().execute("UPDATE cdc.change_tables SET role_name = 'cdc_reader', "
                + "index_name = 'pk_orders', filegroup_name = 'CDC_FG' WHERE capture_instance = 'dbo_orders'");
            fx.txn().insert(row(1, "new", "1.00", null, null)).insert(row(2, "new", "2.00", null, null))
                .insert(row(3, "new", "3.00", null, null)).commit();
            CdcRunOptions plain = options(db, 2);
            CdcRunOptions allowed = plain.toBuilder().allowCaptureInstanceDdl(true).build();
            assertEquals(3, drain(plain, fx));

            fx.addColumn("channel", "NVARCHAR(20)");
            // only the first instance exists: it captures this change, without the new column
            fx.txn().update(row(1, "new", "1.00", null, null), row(row(1, "paid", "1.00", null, null), "lost"))
                .commit();
            Logger readerLog = (Logger) org.slf4j.LoggerFactory.getLogger(SqlServerCdcReader.class);
            ListAppender<ILoggingEvent> logged = new ListAppender<>();
            logged.start();
            readerLog.addAppender(logged);
            try {
                assertEquals(2, drain(plain, fx), "without the flag the stream reads its only instance on");
            } finally {
                readerLog.detachAppender(logged);
            }
            // ... but never silently: each tick says the instance no longer matches, and the ways out
            assertTrue(logged.list.stream().anyMatch(e -> e.getLevel() == Level.WARN
                && e.getFormattedMessage().startsWith("capture instance dbo_orders no longer matches dbo.orders")
                && e.getFormattedMessage().contains("--allow-capture-instance-ddl")), logged.list.toString());
            assertEquals(List.of("dbo_orders"), instances(fx), "nothing was created without the flag");
            assertTrue(fx.enableTableCalls.isEmpty());
            assertTrue(logColumn(db, "channel").isEmpty(), "the column is not captured");

            CdcRuntimeRunReport created = tick(allowed, fx);
            assertTrue(created.passed(), String.valueOf(created.blockers()));
            assertEquals(List.of("dbo_orders", "dbo_orders_v2"), instances(fx));
            assertEquals(1, fx.enableTableCalls.size());
            assertEquals(java.util.Arrays.asList("dbo_orders_v2", "cdc_reader", true, "pk_orders", null, "CDC_FG"),
                java.util.Arrays.asList(fx.enableTableCalls.get(0)), "the first instance's settings, every column");

            fx.txn().insert(row(row(4, "new", "4.00", null, null), "web"))
                .update(row(2, "new", "2.00", null, null), row(row(2, "paid", "2.00", null, null), "shop")).commit();
            fx.txn().delete(row(3, "new", "3.00", null, null)).commit();
            assertEquals(4, drain(allowed, fx));
            assertEquals(1, fx.enableTableCalls.size(), "created once");
            assertEquals("dbo_orders_v2", checkpoint(db, allowed).captureInstance());
            List<String> columns = List.of("order_id", "status", "amount", "channel");
            // the update committed before the instance existed keeps its channel only at the source
            assertEquals(List.of("1|paid|1|lost", "2|paid|2|shop", "4|new|4|web"), source(fx, columns));
            assertEquals(List.of("1|paid|1|\\N", "2|paid|2|shop", "4|new|4|web"), served(db, columns));

            fx.disableCaptureInstance(H2CdcFixture.CAPTURE_INSTANCE);
            fx.txn().update(row(row(4, "new", "4.00", null, null), "web"), row(row(4, "paid", "4.00", null, null),
                "app")).commit();
            assertEquals(2, drain(allowed, fx));
            assertTrue(served(db, columns).contains("4|paid|4|app"));
            assertEquals(1, fx.enableTableCalls.size(), "the new instance matches the table: nothing more created");
        }
    }

    /**
     * A crash between creating the second capture instance and committing the offset: the next tick finds the
     * instance the crashed one created (its deterministic name) and hands over to it; nothing is created twice.
     */
    @Test
    void aCrashAfterTheInstanceWasCreatedResumesOnTheInstanceItCreated() throws Exception {
        String db = TestEngines.newDatabase("cdc_ci_ddl_crash");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
            CdcRunOptions o = options(db, 100).toBuilder().allowCaptureInstanceDdl(true).build();
            assertEquals(1, drain(o, fx));
            CdcOffset before = checkpoint(db, o);
            fx.addColumn("channel", "NVARCHAR(20)");
            fx.txn().insert(row(row(2, "new", "2.00", null, null), "early")).commit();

            io.dpone.cdc.runtime.CdcTick crashing = LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection, ch,
                dir.resolve("spool"));
            io.dpone.cdc.runtime.CdcTick.Adapters a = crashing.adapters();
            CdcRuntimeRunReport crashed = CdcTickRunner.run(new io.dpone.cdc.runtime.CdcTick(crashing.runId(), o,
                new io.dpone.cdc.runtime.CdcTick.Adapters(a.reader(), a.idempotency(), a.applier(),
                    new CrashOnCommit(a.offsets()), a.fence(), a.lanes()), 100));
            assertFalse(crashed.passed() || crashed.committed());
            assertEquals(List.of("dbo_orders", "dbo_orders_v2"), instances(fx), "created before the crash");
            assertEquals(before, checkpoint(db, o), "nothing committed");

            fx.txn().insert(row(row(3, "new", "3.00", null, null), "web")).commit();
            assertEquals(1, drain(o, fx), "the insert of 2 was applied before the crash; 3 is new");
            assertEquals(1, fx.enableTableCalls.size(), "the next tick used the instance the crashed one created");
            assertEquals("dbo_orders_v2", checkpoint(db, o).captureInstance());
            List<String> columns = List.of("order_id", "status", "amount", "channel");
            assertEquals(List.of("1|new|1|\\N", "2|new|2|\\N", "3|new|3|web"), served(db, columns));
        }
    }

    /** The table already has two capture instances, neither created after the one read: a typed blocker, no DDL. */
    @Test
    void aThirdInstanceIsNeverAttemptedTheBlockerSaysWhichToDisable() throws Exception {
        String db = TestEngines.newDatabase("cdc_ci_ddl_two");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
            fx.enableCaptureInstance("dbo_orders_v2");
            fx.txn().insert(row(2, "new", "2.00", null, null)).commit();
            // the stream reads the newer instance; the older one stays enabled
            CdcRunOptions o = options(db, 100).toBuilder().captureInstance("dbo_orders_v2")
                .allowCaptureInstanceDdl(true).build();
            assertEquals(1, drain(o, fx));
            fx.addColumn("channel", "NVARCHAR(20)");
            fx.txn().insert(row(row(3, "new", "3.00", null, null), "web")).commit();
            CdcRuntimeRunReport r = tick(o, fx);
            assertFalse(r.passed() || r.committed());
            assertEquals(CdcBlockers.SCHEMA_CHANGED, r.blockers().get(0).code());
            assertTrue(r.blockers().get(0).message().contains("already has two capture instances (dbo_orders, "
                + "dbo_orders_v2)") && r.blockers().get(0).message().contains("sys.sp_cdc_disable_table"),
                r.blockers().get(0).message());
            assertTrue(fx.enableTableCalls.isEmpty());

            fx.disableCaptureInstance(H2CdcFixture.CAPTURE_INSTANCE);
            assertEquals(1, drain(o, fx));
            assertEquals(List.of("dbo_orders_v2", "dbo_orders_v3"), instances(fx), "v2 is followed by v3");
            fx.txn().insert(row(row(4, "new", "4.00", null, null), "app")).commit();
            assertEquals(1, drain(o, fx));
            assertEquals("dbo_orders_v3", checkpoint(db, o).captureInstance());
            List<String> columns = List.of("order_id", "channel");
            // the stream began on dbo_orders_v2, after the insert of 1
            assertEquals(List.of("2|\\N", "3|\\N", "4|app"), served(db, columns));
        }
    }

    /**
     * An instance the operator created that the capture job has not started yet (its start LSN still NULL, as SQL
     * Server lists it until the job runs) is the successor to wait for: with the flag the tick creates nothing, is not
     * refused, and reads on from the instance it reads.
     */
    @Test
    void anOperatorsInstanceNotStartedYetIsWaitedForNotRefusedNorDuplicated() throws Exception {
        String db = TestEngines.newDatabase("cdc_ci_ddl_pending");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
            CdcRunOptions o = options(db, 100).toBuilder().allowCaptureInstanceDdl(true).build();
            assertEquals(1, drain(o, fx));
            fx.addColumn("channel", "NVARCHAR(20)");
            fx.enableCaptureInstance("dbo_orders_new");
            fx.connection.createStatement().execute("UPDATE cdc.change_tables SET start_lsn = NULL "
                + "WHERE capture_instance = 'dbo_orders_new'");
            fx.txn().insert(row(row(2, "new", "2.00", null, null), "web")).commit();
            CdcRuntimeRunReport r = tick(o, fx);
            assertTrue(r.passed(), String.valueOf(r.blockers()));
            assertTrue(fx.enableTableCalls.isEmpty(), "nothing created beside the operator's instance");
            assertEquals(java.util.Set.of("dbo_orders", "dbo_orders_new"), java.util.Set.copyOf(instances(fx)));
            assertEquals(List.of("1", "2"), served(db, List.of("order_id")));
        }
    }

    /** An offset store whose commit crashes after every apply. */
    private record CrashOnCommit(io.dpone.cdc.CdcOffsetStore inner) implements io.dpone.cdc.CdcOffsetStore {
        @Override
        public java.util.Optional<CdcOffset> load(io.dpone.cdc.StreamIdentity stream) {
            return inner.load(stream);
        }

        @Override
        public void commit(io.dpone.cdc.StreamIdentity stream, java.util.Optional<CdcOffset> expected,
                           CdcOffset next, String writer) {
            throw new IllegalStateException("the process died before the commit");
        }
    }
}
