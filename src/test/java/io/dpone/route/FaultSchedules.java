package io.dpone.route;

import io.dpone.camel.DponeCamel;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.FaultProxy;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The fault suite's full-refresh schedules (issue 35, docs/testing.md "The fault suite"): a {@link FaultProxy} between
 * dpone and the ClickHouse HTTP twin, one seeded schedule per run. Each schedule loads the table under the schedule's
 * faults and checks the invariants: the run passes or fails typed within its bound; the target holds the old
 * generation (the previous schedule's) or the new one, complete (every source key once, one run id); a failed run,
 * resumed with the same run id and the faults off, passes and publishes exactly the source.
 * Used by {@code FaultSuiteTest} (a few dozen schedules in CI) and {@code bench/fault-schedules.sh} (a thousand).
 */
public final class FaultSchedules {
    static final String SERVER = "clickhouse_faulty";

    /**
     * A schedule's parameters: the proxy's seed and fault kinds; {@code rate}, the share of connections with a fault;
     * {@code window}, the bound of a fault's byte offset.
     */
    public record Schedule(long seed, String route, List<FaultProxy.Kind> kinds, double rate, long window) {
    }

    /** What a schedule did; {@code violation} is null when every invariant held. */
    public record Outcome(Schedule schedule, boolean passed, List<String> codes, int faults, long retries,
                          Map<String, Long> retriesByKind, long millis, boolean resumed, String violation) {
    }

    private final TwinProcess twin;
    private final Path dir;
    private final long boundMillis;
    private final long socketTimeoutMillis;
    private int maxRetries = 12;

    /**
     * Schedules against {@code twin}, working under {@code dir}; each run must end within {@code boundMillis}; the
     * alias's {@code socket_timeout} is {@code socketTimeoutMillis}, and a stall lasts 1.5 s beyond it.
     */
    public FaultSchedules(TwinProcess twin, Path dir, long boundMillis, long socketTimeoutMillis) {
        this.twin = twin;
        this.dir = dir;
        this.boundMillis = boundMillis;
        this.socketTimeoutMillis = socketTimeoutMillis;
    }

    /**
     * Runs {@code schedules} (one route, one table) as a chain on one source and one target: a first run without
     * faults publishes the starting generation, then every schedule runs under its faults with its own run id, so the
     * generation a schedule must leave untouched when it fails is the one the schedule before it published.
     */
    /** The manifests' {@code retry.max_retries} from now on (default 12; 0: retries off). */
    public FaultSchedules maxRetries(int retries) {
        this.maxRetries = retries;
        return this;
    }

    public List<Outcome> chain(DponeCamel camel, String route, int rows, int chunkRows, List<Schedule> schedules)
            throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("fault_chain");
        Path work = Files.createDirectories(dir.resolve("chain-" + System.nanoTime()));
        URIParts twinUrl = URIParts.of(twin.url());
        List<Outcome> out = new ArrayList<>();
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint direct = ClickHouseEndpoints.open(context(work, h2, twin.url(), Map.of())
                 .resolve(SERVER, ConnectionType.CLICKHOUSE, "test"))) {
            DemoSalesGenerator.seed(src, rows, 7);
            BatchManifest m = manifest(work, db, route, chunkRows);
            // the starting generation: straight to the twin, with the default timeouts (a cold twin may be slow)
            ConnectionContext plain = context(work, h2, twin.url(), Map.of());
            RunReport base = bounded(() -> new FullRefreshRunner(camel, plain, work).run(m, "base",
                ProgressListener.NONE));
            if (!base.passed()) {
                throw new IllegalStateException("the run without faults failed: " + codes(base));
            }
            String published = "base";
            for (Schedule s : schedules) {
                Outcome o = one(camel, s, m, work, h2, direct, db, rows, twinUrl, published);
                out.add(o);
                if (o.violation() != null) {
                    break; // the chain's state is unknown from here
                }
                published = runId(s);
            }
            return out;
        } finally {
            dropQuietly(db, work, h2);
        }
    }

    private static String runId(Schedule s) {
        return "s" + Long.toUnsignedString(s.seed(), 36);
    }

    private Outcome one(DponeCamel camel, Schedule s, BatchManifest m, Path work, String h2, ClickHouseEndpoint direct,
                        String db, int rows, URIParts twinUrl, String published) throws Exception {
        String id = runId(s);
        try (FaultProxy proxy = FaultProxy.start(twinUrl.host(), twinUrl.port(), s.seed(), s.kinds(), s.rate(),
                s.window(), socketTimeoutMillis + 1_500, 1_500)) {
            ConnectionContext faulty = context(work, h2, "http://127.0.0.1:" + proxy.port());
            long t0 = System.nanoTime();
            RunReport r;
            try {
                r = bounded(() -> new FullRefreshRunner(camel, faulty, work).run(m, id, ProgressListener.NONE));
            } catch (TimeoutException e) {
                return outcome(s, null, proxy, (System.nanoTime() - t0) / 1_000_000, false,
                    "the run did not end within " + boundMillis + " ms");
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            proxy.faults(false);
            Verdict v = verdict(r, () -> bounded(() -> new FullRefreshRunner(camel, faulty, work).run(m, id,
                ProgressListener.NONE)), direct, db, rows, id, published);
            return outcome(s, r, proxy, ms, v.resumed(), v.violation());
        }
    }

    private void dropQuietly(String db, Path work, String h2) {
        try (ClickHouseEndpoint direct = ClickHouseEndpoints.open(context(work, h2, twin.url(), Map.of())
                .resolve(SERVER, ConnectionType.CLICKHOUSE, "test"))) {
            direct.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        } catch (RuntimeException ignored) {
            // the next schedule uses a database of its own
        }
    }

    private RunReport bounded(java.util.concurrent.Callable<RunReport> run) throws Exception {
        CompletableFuture<RunReport> f = CompletableFuture.supplyAsync(() -> {
            try {
                return run.call();
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        try {
            return f.get(boundMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    /** What the suites' invariants say of one faulted run: the violation (null: none), and whether it resumed. */
    record Verdict(String violation, boolean resumed) {
    }

    /**
     * The invariants of every fault suite for run {@code id} that ended as {@code r}: a passed run left the complete
     * new generation; a failed one failed typed (a blocker code, none {@code runtime.*}), left the last published
     * generation ({@code published}) whole, and {@code resume} (the same run id again, faults off) passes and leaves
     * the new generation.
     */
    static Verdict verdict(RunReport r, java.util.concurrent.Callable<RunReport> resume, ClickHouseEndpoint ch,
                           String db, int rows, String id, String published) throws Exception {
        if (r.passed()) {
            return new Verdict(generation(ch, db, rows, id), false);
        }
        if (r.blockers().isEmpty() || codes(r).stream().anyMatch(c -> c.startsWith("runtime.") || c.isBlank())) {
            return new Verdict("failed untyped: " + r.blockers(), false);
        }
        String old = generation(ch, db, rows, published);
        if (old != null) {
            return new Verdict("after the failed run: " + old, false);
        }
        RunReport again = resume.call();
        if (!again.passed()) {
            return new Verdict("the resume failed: " + codes(again), false);
        }
        String fresh = generation(ch, db, rows, id);
        return new Verdict(fresh, fresh == null);
    }

    /** Null when the target holds exactly the source's rows, each key once, all of run {@code runId}. */
    static String generation(ClickHouseEndpoint ch, String db, int rows, String runId) {
        List<List<String>> got = ch.query("SELECT toString(count()), toString(uniqExact(sale_id)), "
            + "toString(uniqExact(__dpone__run_id)), any(__dpone__run_id) FROM " + ClickHouseSql.table(db, "sales"));
        List<String> want = List.of(String.valueOf(rows), String.valueOf(rows), "1", runId);
        return got.equals(List.of(want)) ? null : "target holds " + got + ", not the complete generation " + want;
    }

    private static Outcome outcome(Schedule s, RunReport r, FaultProxy proxy, long ms, boolean resumed,
                                   String violation) {
        return new Outcome(s, r != null && r.passed(), r == null ? List.of() : codes(r), proxy.firedTotal(),
            r == null || r.retries() == null ? 0 : r.retries().retries(),
            r == null || r.retries() == null ? Map.of() : r.retries().byKind(), ms, resumed, violation);
    }

    static List<String> codes(RunReport r) {
        return r.blockers().stream().map(Blocker::code).distinct().toList();
    }

    private ConnectionContext context(Path work, String h2, String url) {
        return context(work, h2, url, Map.of("socket_timeout", socketTimeoutMillis + "ms", "response_timeout",
            Math.max(20_000, 20 * socketTimeoutMillis) + "ms"));
    }

    private ConnectionContext context(Path work, String h2, String url, Map<String, String> options) {
        try {
            Path password = work.resolve("twin-password");
            if (!Files.exists(password)) {
                Files.writeString(password, twin.password());
            }
            return ConnectionContext.of(Map.of(
                TestEngines.SOURCE, TestEngines.sourceEntry(h2),
                SERVER, new ContextEntry(SERVER, ConnectionType.CLICKHOUSE, url, TwinProcess.USER, null,
                    password.toString(), false, options)), false);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private BatchManifest manifest(Path work, String db, String route, int chunkRows) throws Exception {
        String yaml = """
            name: fault-schedule
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: sales}
              options: {fetch_size: 1000, chunk_rows: %d}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: sales}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options:
                lineage: false
                route: %s
                order_by: [sale_id]
            retry:
              max_retries: %d
              max_time: 60s
              initial_backoff: 20ms
              max_backoff: 500ms
            """.formatted(TestEngines.SOURCE, chunkRows, SERVER, db, db, route, maxRetries);
        return ManifestLoader.load(Files.writeString(work.resolve("sales.batch.yaml"), yaml));
    }

    /** Host and port of an http:// URL. */
    record URIParts(String host, int port) {
        static URIParts of(String url) {
            java.net.URI u = java.net.URI.create(url);
            return new URIParts(u.getHost(), u.getPort());
        }
    }

    /** The tally of many outcomes, one line per figure. */
    public static String tally(List<Outcome> outcomes) {
        long passed = outcomes.stream().filter(Outcome::passed).count();
        long resumed = outcomes.stream().filter(Outcome::resumed).count();
        long violations = outcomes.stream().filter(o -> o.violation() != null).count();
        long faults = outcomes.stream().mapToLong(Outcome::faults).sum();
        long hit = outcomes.stream().filter(o -> o.faults() > 0).count();
        long retries = outcomes.stream().mapToLong(Outcome::retries).sum();
        Map<String, Long> byKind = new java.util.TreeMap<>();
        outcomes.forEach(o -> o.retriesByKind().forEach((k, v) -> byKind.merge(k, v, Long::sum)));
        Map<String, Long> codes = new java.util.TreeMap<>();
        outcomes.stream().filter(o -> !o.passed()).forEach(o -> o.codes().forEach(c -> codes.merge(c, 1L, Long::sum)));
        List<String> lines = new ArrayList<>();
        lines.add("schedules " + outcomes.size() + ", hit by a fault " + hit + ", faults fired " + faults);
        lines.add("passed " + passed + ", failed typed and resumed exactly " + resumed + ", invariant violations "
            + violations);
        lines.add("retries " + retries + " " + byKind);
        lines.add("failure codes " + codes);
        outcomes.stream().filter(o -> o.violation() != null).forEach(o -> lines.add("VIOLATION seed "
            + o.schedule().seed() + " " + o.schedule().route() + ": " + o.violation()));
        return String.join("\n", lines);
    }
}
