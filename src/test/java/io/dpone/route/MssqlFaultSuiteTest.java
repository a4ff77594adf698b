package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.camel.DponeCamel;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.FaultProxy;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import io.dpone.testing.mssql.MssqlTwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault suite's source leg (issue 35, docs/testing.md "The fault suite"): a {@link FaultProxy} between dpone and
 * the SQL Server TDS twin (the real mssql-jdbc on the wire), full refreshes into the embedded engine. A connection
 * dropped (reset or closed) in the middle of a key range's result is re-read on a fresh connection from the last
 * key delivered ({@code source_read}); the schedules are chained on one target and checked with the suite's
 * invariants: the run passes with every source key once, or fails typed and leaves the previous generation, and its
 * resume with the faults off publishes exactly the source.
 */
@io.dpone.testing.ProcessTest
class MssqlFaultSuiteTest {
    private static final int ROWS = 20_000;
    static MssqlTwinProcess twin;

    @TempDir
    static Path home;

    @BeforeAll
    static void start() throws Exception {
        twin = MssqlTwinProcess.start(home.resolve("twin"));
        try (Connection c = twin.connect()) {
            DemoSalesGenerator.seed(c, ROWS, 17);
        }
    }

    @AfterAll
    static void stop() {
        if (twin != null) {
            twin.close();
        }
    }

    record Outcome(long seed, boolean passed, Map<String, Long> retries, List<String> codes, int faults,
                   int connections, boolean resumed, String violation) {
    }

    @Test
    void aDroppedSourceConnectionIsReReadFromItsLastKeyWithoutDuplicatingRows() throws Exception {
        List<Outcome> retrying = chain(null, 0x35_6000L, 4, 1.0);
        String tally = tally(retrying);
        System.err.println("source fault suite, retrying:\n" + tally);
        assertEquals(0, retrying.stream().filter(o -> o.violation() != null).count(), tally);
        assertTrue(retrying.stream().anyMatch(o -> o.passed() && o.retries().getOrDefault("source_read", 0L) > 0),
            "a run passed through a dropped source connection with source_read counted: " + tally);

        List<Outcome> off = chain("retry:\n  max_retries: 0\n", 0x35_6100L, 2, 1.0);
        String offTally = tally(off);
        System.err.println("source fault suite, retries off:\n" + offTally);
        assertEquals(0, off.stream().filter(o -> o.violation() != null).count(), offTally);
        assertTrue(off.stream().anyMatch(o -> !o.passed() && o.resumed()), "with retries off a faulted run fails "
            + "typed and resumes exactly: " + offTally);
        assertTrue(off.stream().allMatch(o -> o.retries().isEmpty()), offTally);
    }

    private List<Outcome> chain(String retry, long seed0, int schedules, double rate) throws Exception {
        String db = TestEngines.newDatabase("fault_tds");
        Path work = Files.createDirectories(home.resolve("chain-" + Long.toHexString(seed0)));
        Path manifest = Manifests.fullRefresh(work, "sales", db, "route: typed_binary_streaming\norder_by: [sale_id]");
        Files.writeString(manifest, Files.readString(manifest) + "\n" + (retry != null ? retry
            : "retry:\n  max_retries: 12\n  max_time: 60s\n  initial_backoff: 20ms\n  max_backoff: 500ms\n"));
        BatchManifest m = ManifestLoader.load(manifest);
        List<Outcome> out = new ArrayList<>();
        try (DponeCamel camel = DponeCamel.start(null, false); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            RunReport base = new FullRefreshRunner(camel, context(twin.url()), work).run(m, "base",
                ProgressListener.NONE);
            assertTrue(base.passed(), () -> "the run without faults: " + base.blockers());
            String published = "base";
            for (int i = 0; i < schedules; i++) {
                long seed = seed0 + i;
                String id = "s" + Long.toString(seed, 36);
                // one fault on every connection (one connection reads the table: consecutive seeds draw alike
                // first values, so a rate below 1 would spare all or none), offsets up to 1 MiB: most land in the
                // result (20,000 rows, about 2 MB), a few in the login
                try (FaultProxy proxy = FaultProxy.start("127.0.0.1", twin.port(), seed,
                        List.of(FaultProxy.Kind.RESET, FaultProxy.Kind.CLOSE), rate, 1024 * 1024L, 2_500, 1_500)) {
                    ConnectionContext faulty = context(twin.url().replace(":" + twin.port() + ";",
                        ":" + proxy.port() + ";"));
                    RunReport r = new FullRefreshRunner(camel, faulty, work).run(m, id, ProgressListener.NONE);
                    proxy.faults(false);
                    Map<String, Long> retries = r.retries() == null ? Map.of() : r.retries().byKind();
                    List<String> codes = FaultSchedules.codes(r);
                    if (!r.passed()) {
                        System.err.println("seed " + Long.toHexString(seed) + " failed: " + r.blockers());
                    }
                    FaultSchedules.Verdict v = FaultSchedules.verdict(r, () -> new FullRefreshRunner(camel, faulty,
                        work).run(m, id, ProgressListener.NONE), ch, db, ROWS, id, published);
                    String violation = v.violation();
                    boolean resumed = v.resumed();
                    out.add(new Outcome(seed, r.passed(), retries, codes, proxy.firedTotal(), proxy.connections(), resumed,
                        violation));
                    if (violation != null) {
                        break;
                    }
                    published = id;
                }
            }
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
        return out;
    }

    private static String tally(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder();
        for (Outcome o : outcomes) {
            sb.append("seed ").append(Long.toHexString(o.seed())).append(": connections ").append(o.connections()).append(", faults ").append(o.faults())
                .append(o.passed() ? ", passed" : ", failed " + o.codes() + (o.resumed() ? ", resumed exactly" : ""))
                .append(", retries ").append(o.retries())
                .append(o.violation() == null ? "" : ", VIOLATION " + o.violation()).append('\n');
        }
        return sb.toString();
    }

    private static ConnectionContext context(String url) {
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, new ContextEntry(TestEngines.SOURCE, ConnectionType.MSSQL, url,
                MssqlTwinProcess.USER, null, twin.passwordFile().toString(), false, Map.of()),
            TestEngines.CLICKHOUSE, new ContextEntry(TestEngines.CLICKHOUSE, ConnectionType.CLICKHOUSE, null, null,
                null, null, true, Map.of("path", TestEngines.clickHousePath().toString()))), false);
    }
}
