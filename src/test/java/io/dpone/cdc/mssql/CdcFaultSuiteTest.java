package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.camel.DponeCamel;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.retry.RetrySettings;
import io.dpone.testing.FaultProxy;
import io.dpone.testing.TestEngines;
import io.dpone.testing.mssql.MssqlTwinProcess;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault suite's CDC leg (issue 35, docs/testing.md "The fault suite"): live SQL Server CDC ticks with a
 * {@link FaultProxy} in front of the TDS twin (the reader's connection, through the real mssql-jdbc) and one in front
 * of the ClickHouse HTTP twin (the log apply, the offset store, the materialization), one seeded schedule per tick.
 * A schedule writes changes to the source, runs one tick and one materialization under its faults, checks the
 * invariants, then turns the faults off and runs a clean tick and a clean materialization:
 * <ul>
 *   <li>the tick passes, or fails typed (blocker codes, none {@code runtime.*}), within its bound; so does the
 *       materialization;</li>
 *   <li>no event is applied twice: the log holds each event id once, after every tick;</li>
 *   <li>the offset moves only after a durable apply: a checkpoint that moved has every source change up to it in
 *       the log; a tick that failed before its apply passed left the checkpoint where it was;</li>
 *   <li>the clean tick converges exactly: the log holds every change of the source's change table once (per
 *       operation), the checkpoint is the batch's next offset, and the serving table is the source table.</li>
 * </ul>
 */
@io.dpone.testing.ProcessTest
class CdcFaultSuiteTest {
    private static final String SOURCE = "mssql_faulty";
    private static final String SINK = "clickhouse_faulty";
    private static final long SOCKET_TIMEOUT_MS = 1_000;
    private static final long BOUND_MS = 60_000;
    private static MssqlTwinProcess mssql;
    private static TwinProcess clickhouse;

    @TempDir
    static Path home;

    @BeforeAll
    static void start() throws Exception {
        clickhouse = TwinProcess.shared();
        mssql = MssqlTwinProcess.start(home.resolve("mssql"));
        try (Connection c = mssql.connect(); Statement st = c.createStatement()) {
            st.execute("EXEC sys.sp_cdc_enable_db");
        }
    }

    @AfterAll
    static void stop() {
        if (mssql != null) {
            mssql.close();
        }
    }

    /** Which connections a schedule puts faults on. */
    enum Leg { SOURCE, SINK, BOTH }

    /** A schedule: the proxies' seed, the faulted legs and fault kinds; one fault on every connection of a leg. */
    record Schedule(long seed, Leg leg, List<FaultProxy.Kind> kinds, double rate) {
    }

    /** What a schedule did; {@code violation} is null when every invariant held. */
    record Outcome(Schedule schedule, boolean passed, boolean materialized, List<String> codes, int faults,
                   Map<String, Long> retries, long millis, long totalMillis, String violation) {
    }

    @Test
    void seededFaultSchedulesOnTheSourceAndTheSinkLoseNoEventAndApplyNoneTwice() throws Exception {
        int count = Integer.getInteger("fault.cdc.schedules", 8);
        List<Schedule> schedules = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            schedules.add(schedule(0x35_c000L + i, 0.6));
        }
        List<Outcome> outcomes = chain("orders_fr", schedules, new RetrySettings(12, Duration.ofSeconds(30),
            Duration.ofMillis(20), Duration.ofMillis(500)));
        String tally = tally(outcomes);
        System.err.println("CDC fault suite, retrying:\n" + tally);
        assertEquals(0, outcomes.stream().filter(o -> o.violation() != null).count(), tally);
        assertEquals(count, outcomes.size(), "every schedule ran: " + tally);
        assertTrue(outcomes.stream().anyMatch(o -> o.faults() > 0), "the schedules fired faults: " + tally);
        assertTrue(outcomes.stream().anyMatch(o -> o.passed() && o.faults() > 0
            && o.retries().values().stream().mapToLong(Long::longValue).sum() > 0),
            "a tick passed through a fault with its retries counted in its report: " + tally);
    }

    @Test
    void withRetriesOffAFaultedTickFailsTypedAndTheNextCleanTickConverges() throws Exception {
        List<Schedule> schedules = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            schedules.add(schedule(0x35_c100L + i, 1.0));
        }
        List<Outcome> outcomes = chain("orders_fo", schedules, RetrySettings.DEFAULT.with(0, null, null, null));
        String tally = tally(outcomes);
        System.err.println("CDC fault suite, retries off:\n" + tally);
        assertEquals(0, outcomes.stream().filter(o -> o.violation() != null).count(), tally);
        assertTrue(outcomes.stream().anyMatch(o -> !o.passed()), "a faulted tick failed typed: " + tally);
        assertTrue(outcomes.stream().allMatch(o -> o.retries().values().stream().allMatch(v -> v == 0)), tally);
    }

    /** The schedule of {@code seed}: its legs and fault kinds drawn from the seed. */
    static Schedule schedule(long seed, double rate) {
        Random r = new Random(seed);
        Leg leg = Leg.values()[r.nextInt(Leg.values().length)];
        List<FaultProxy.Kind> kinds = new ArrayList<>(List.of(FaultProxy.Kind.values()));
        java.util.Collections.shuffle(kinds, r);
        return new Schedule(seed, leg, List.copyOf(kinds.subList(0, 2 + r.nextInt(kinds.size() - 1))), rate);
    }

    /**
     * Runs {@code schedules} as a chain on one source table, one log and one serving table: a clean tick and
     * materialization first, then each schedule's changes, faulted tick, checks and clean tick.
     */
    private List<Outcome> chain(String table, List<Schedule> schedules, RetrySettings retry) throws Exception {
        String db = TestEngines.newDatabase("cdc_fault");
        Path work = Files.createDirectories(home.resolve(table));
        Path password = Files.writeString(work.resolve("ch-password"), clickhouse.password());
        ConnectionContext plain = context(mssql.port(), clickhouse.url(), password, Map.of());
        List<Outcome> out = new ArrayList<>();
        try (DponeCamel camel = DponeCamel.start(null, false); Connection src = mssql.connect();
             ClickHouseEndpoint direct = ClickHouseEndpoints.open(plain.resolve(SINK, ConnectionType.CLICKHOUSE,
                 "test"))) {
            direct.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(db));
            MssqlChangeContract.createOrders(src, table);
            try (Statement st = src.createStatement()) {
                st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'" + table
                    + "', @role_name = NULL");
            }
            MssqlChangeContract.writeChanges(src, table, 3, 1);
            CdcRunOptions options = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
                .backend(SqlServerCdcReader.BACKEND).pipelineName(table + "-fault").sourceTable("dbo", table)
                .targetDataset(db + "." + table + "_cdc").uniqueKeys(List.of("order_id")).connections(SOURCE, SINK)
                .maxEvents(10_000).retry(retry).build();
            CdcRuntimeRunReport base = tick(camel, options, plain);
            if (!base.passed()) {
                throw new IllegalStateException("the tick without faults failed: " + base.blockers());
            }
            String violation = materialize(direct, db, table);
            if (violation != null) {
                throw new IllegalStateException("the materialization without faults failed: " + violation);
            }
            for (Schedule s : schedules) {
                Outcome o = one(camel, s, options, src, direct, db, table, password, plain);
                out.add(o);
                if (o.violation() != null) {
                    break; // the chain's state is unknown from here
                }
            }
            direct.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
        return out;
    }

    private Outcome one(DponeCamel camel, Schedule s, CdcRunOptions options, Connection src, ClickHouseEndpoint direct,
                        String db, String table, Path password, ConnectionContext plain) throws Exception {
        MssqlChangeContract.writeChanges(src, table, 1 + (int) Long.remainderUnsigned(s.seed(), 3), s.seed());
        ClickHouseOffsetStore offsets = new ClickHouseOffsetStore(direct, db, "dpone_cdc_offsets");
        Optional<CdcOffset> before = offsets.load(options.stream());
        long stall = SOCKET_TIMEOUT_MS + 1_500;
        // consecutive seeds draw alike first values from java.util.Random: each proxy gets a scrambled one
        try (FaultProxy source = FaultProxy.start("127.0.0.1", mssql.port(), s.seed() * 0x9E3779B97F4A7C15L,
                s.kinds(), s.leg() == Leg.SINK ? 0 : s.rate(), 8 * 1024L, stall, 1_500);
             FaultProxy sink = FaultProxy.start("127.0.0.1", port(clickhouse.url()), s.seed() * 0xC2B2AE3D27D4EB4FL,
                 s.kinds(), s.leg() == Leg.SOURCE ? 0 : s.rate(), 16 * 1024L, stall, 1_500)) {
            ConnectionContext faulty = context(source.port(), "http://127.0.0.1:" + sink.port(), password,
                Map.of("socket_timeout", SOCKET_TIMEOUT_MS + "ms", "response_timeout", "20000ms"));
            long t0 = System.nanoTime();
            CdcRuntimeRunReport r;
            List<String> codes;
            try {
                r = bounded(() -> tick(camel, options, faulty));
                codes = r.blockers().stream().map(Blocker::code).distinct().toList();
            } catch (TimeoutException e) {
                return new Outcome(s, false, false, List.of(), source.firedTotal() + sink.firedTotal(), Map.of(),
                    BOUND_MS, BOUND_MS, "the tick did not end within " + BOUND_MS + " ms");
            } catch (DponeException e) {
                r = null; // refused before its first step (the source connect failed beyond the budget): typed
                codes = e.blockers().stream().map(Blocker::code).distinct().toList();
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            Map<String, Long> retries = r == null || r.retries() == null ? Map.of() : r.retries().byKind();
            String violation = afterFaultedTick(r, codes, offsets, options, before, src, direct, db, table);
            boolean materialized = false;
            if (violation == null) {
                // the materialization under the same faults: passes or fails typed
                try (ClickHouseEndpoint faultyCh = ClickHouseEndpoints.open(faulty.resolve(SINK,
                        ConnectionType.CLICKHOUSE, "test"))) {
                    Map<String, Object> m = bounded(() -> new CdcMaterializer(faultyCh).materialize(
                        materializeOptions(db, table), null));
                    materialized = Boolean.TRUE.equals(m.get("passed"));
                    if (!materialized && ((List<?>) m.get("blockers")).isEmpty()) {
                        violation = "the materialization failed without a blocker";
                    }
                } catch (DponeException e) {
                    materialized = false; // typed
                } catch (TimeoutException e) {
                    violation = "the materialization did not end within " + BOUND_MS + " ms";
                } catch (RuntimeException e) {
                    violation = "the materialization failed untyped: " + e;
                }
            }
            int faults = source.firedTotal() + sink.firedTotal();
            source.faults(false);
            sink.faults(false);
            if (violation == null) {
                violation = converges(camel, options, plain, offsets, src, direct, db, table);
            }
            return new Outcome(s, r != null && r.passed(), materialized, codes, faults, retries, ms,
                (System.nanoTime() - t0) / 1_000_000, violation);
        }
    }

    /**
     * The invariants after the faulted tick {@code r} (null: refused before its first step, with {@code codes}):
     * typed, no event twice, and a checkpoint that moved only past changes the log holds.
     */
    private static String afterFaultedTick(CdcRuntimeRunReport r, List<String> codes, ClickHouseOffsetStore offsets,
                                           CdcRunOptions options, Optional<CdcOffset> before, Connection src,
                                           ClickHouseEndpoint direct, String db, String table) throws Exception {
        boolean passed = r != null && r.passed();
        if (!passed && (codes.isEmpty() || codes.stream().anyMatch(c -> c.isBlank() || c.startsWith("runtime.")))) {
            return "the tick failed untyped: " + (r == null ? codes : r.blockers());
        }
        String twice = eventsOnce(direct, db, table);
        if (twice != null) {
            return "after the faulted tick: " + twice;
        }
        Optional<CdcOffset> after = offsets.load(options.stream());
        if (passed && !r.committed() && !"offset_unchanged".equals(r.commitOutcome())) {
            return "a passing tick with changes to apply did not commit: " + r.commitOutcome();
        }
        if (!after.equals(before)) {
            boolean durable = r != null && r.sinkReceipt() != null && r.sinkReceipt().passed()
                && r.sinkReceipt().durable();
            if (!durable) {
                return "the checkpoint moved although the tick's apply was not durable: " + codes;
            }
            String missing = logHoldsTheSource(src, direct, db, table);
            if (missing != null) {
                return "the checkpoint moved past changes the log does not hold: " + missing;
            }
        }
        return null;
    }

    /** The clean tick and materialization after a schedule: they pass and leave exactly the source. */
    private String converges(DponeCamel camel, CdcRunOptions options, ConnectionContext plain,
                             ClickHouseOffsetStore offsets, Connection src, ClickHouseEndpoint direct, String db,
                             String table) throws Exception {
        CdcRuntimeRunReport clean = bounded(() -> tick(camel, options, plain));
        if (!clean.passed()) {
            return "the clean tick failed: " + clean.blockers();
        }
        String twice = eventsOnce(direct, db, table);
        if (twice != null) {
            return "after the clean tick: " + twice;
        }
        String missing = logHoldsTheSource(src, direct, db, table);
        if (missing != null) {
            return "after the clean tick: " + missing;
        }
        Optional<CdcOffset> after = offsets.load(options.stream());
        if (clean.nextOffset() != null && (after.isEmpty()
                || !String.valueOf(clean.nextOffset().get("position")).equals(after.get().token()))) {
            return "after the clean tick the checkpoint is " + after + ", not the batch's next offset "
                + clean.nextOffset();
        }
        return materialize(direct, db, table);
    }

    /** Null when the serving table, materialized without faults, is exactly the source table. */
    private static String materialize(ClickHouseEndpoint direct, String db, String table) throws Exception {
        Map<String, Object> m = new CdcMaterializer(direct).materialize(materializeOptions(db, table), null);
        if (!Boolean.TRUE.equals(m.get("passed"))) {
            return "the clean materialization failed: " + m.get("blockers");
        }
        List<List<String>> serving = direct.query("SELECT toString(order_id), status, toString(amount), "
            + "ifNull(note, '\\\\N') FROM " + ClickHouseSql.table(db, table + "_current")
            + " ORDER BY toInt64(order_id)");
        try (Connection c = mssql.connect()) {
            List<List<String>> source = MssqlChangeContract.sourceRows(c, table);
            return serving.equals(source) ? null : "the serving table holds " + serving.size() + " rows, not the "
                + "source's " + source.size() + " (or other values)";
        }
    }

    private static CdcMaterializer.Options materializeOptions(String db, String table) {
        return new CdcMaterializer.Options(db + "." + table + "_cdc", db + "." + table + "_current",
            List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted);
    }

    /** Null when the log holds each event id once. */
    private static String eventsOnce(ClickHouseEndpoint direct, String db, String table) {
        List<List<String>> r = direct.query("SELECT toString(count()), toString(uniqExact(dpone_cdc_event_id)) FROM "
            + ClickHouseSql.table(db, table + "_cdc"));
        return r.get(0).get(0).equals(r.get(0).get(1)) ? null
            : "the log holds " + r.get(0).get(0) + " rows for " + r.get(0).get(1) + " event ids (an event twice)";
    }

    /** Null when the log holds, per operation, exactly the changes of the source's change table. */
    private static String logHoldsTheSource(Connection src, ClickHouseEndpoint direct, String db, String table)
            throws Exception {
        Map<String, Long> source = new TreeMap<>();
        try (Statement st = src.createStatement(); ResultSet rs = st.executeQuery("SELECT [__$operation], COUNT(*) "
            + "FROM cdc.[dbo_" + table + "_CT] GROUP BY [__$operation]")) {
            while (rs.next()) {
                String op = switch (rs.getInt(1)) {
                    case 1 -> "delete";
                    case 2 -> "insert";
                    case 3 -> "update_before";
                    case 4 -> "update_after";
                    default -> "operation " + rs.getInt(1);
                };
                source.put(op, rs.getLong(2));
            }
        }
        Map<String, Long> log = new TreeMap<>();
        direct.query("SELECT toString(dpone_cdc_operation), toString(count()) FROM "
            + ClickHouseSql.table(db, table + "_cdc") + " GROUP BY dpone_cdc_operation")
            .forEach(row -> log.put(row.get(0), Long.parseLong(row.get(1))));
        return source.equals(log) ? null : "the log holds " + log + ", the source's change table " + source;
    }

    private static CdcRuntimeRunReport tick(DponeCamel camel, CdcRunOptions options, ConnectionContext context) {
        return LiveCdcRuntime.run(options, context, t -> CdcTickRunner.run(camel, t));
    }

    private static <T> T bounded(java.util.concurrent.Callable<T> call) throws Exception {
        CompletableFuture<T> f = CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        try {
            return f.get(BOUND_MS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    private static ConnectionContext context(int mssqlPort, String clickhouseUrl, Path password,
                                             Map<String, String> chOptions) {
        String url = mssql.url().replace(":" + mssql.port() + ";", ":" + mssqlPort + ";");
        Map<String, String> sourceOptions = chOptions.isEmpty() ? Map.of()
            : Map.of("socket_timeout", SOCKET_TIMEOUT_MS + "ms", "login_timeout", "2s");
        return ConnectionContext.of(Map.of(
            SOURCE, new ContextEntry(SOURCE, ConnectionType.MSSQL, url, MssqlTwinProcess.USER, null,
                mssql.passwordFile().toString(), false, sourceOptions),
            SINK, new ContextEntry(SINK, ConnectionType.CLICKHOUSE, clickhouseUrl, TwinProcess.USER, null,
                password.toString(), false, chOptions)), false);
    }

    private static int port(String url) {
        return java.net.URI.create(url).getPort();
    }

    /** The tally of a chain, one line per schedule and a summary. */
    static String tally(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder();
        Map<String, Long> retries = new TreeMap<>();
        for (Outcome o : outcomes) {
            o.retries().forEach((k, v) -> retries.merge(k, v, Long::sum));
            sb.append("seed ").append(Long.toHexString(o.schedule().seed())).append(' ').append(o.schedule().leg())
                .append(' ').append(o.schedule().kinds()).append(": faults ").append(o.faults())
                .append(o.passed() ? ", tick passed" : ", tick failed " + o.codes())
                .append(o.materialized() ? ", materialized" : ", materialization failed")
                .append(", retries ").append(o.retries()).append(", tick ").append(o.millis()).append(" ms, schedule ")
                .append(o.totalMillis()).append(" ms")
                .append(o.violation() == null ? "" : ", VIOLATION " + o.violation()).append('\n');
        }
        long passed = outcomes.stream().filter(Outcome::passed).count();
        sb.append("schedules ").append(outcomes.size()).append(", hit by a fault ")
            .append(outcomes.stream().filter(o -> o.faults() > 0).count()).append(", faults fired ")
            .append(outcomes.stream().mapToInt(Outcome::faults).sum()).append(", ticks passed ").append(passed)
            .append(", failed typed ").append(outcomes.size() - passed).append(", materializations passed ")
            .append(outcomes.stream().filter(Outcome::materialized).count()).append(", violations ")
            .append(outcomes.stream().filter(o -> o.violation() != null).count()).append(", retries ")
            .append(retries);
        return sb.toString();
    }
}
