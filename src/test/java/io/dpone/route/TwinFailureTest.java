package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.report.ReportWriter;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server path's failures through the twin, each a typed blocker with nothing secret in the report and nothing
 * published: a wrong password, a dead port, the server failing an insert in the middle of a load, an HTTP 5xx from a
 * proxy, a server slower than the alias's socket timeout.
 */
@io.dpone.testing.ProcessTest
class TwinFailureTest {
    private static final String SERVER = "clickhouse_server";
    private static TwinProcess twin;
    private static Path home;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        home = Files.createTempDirectory("dpone-twin-fail-");
        twin = TwinProcess.start(home.resolve("twin"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (twin != null) {
            twin.close();
        }
    }

    private static ConnectionContext context(String h2, String url, String password, Map<String, String> options)
            throws Exception {
        Path file = Files.writeString(Files.createTempFile(home, "password", ""), password);
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, TestEngines.sourceEntry(h2),
            SERVER, new ContextEntry(SERVER, ConnectionType.CLICKHOUSE, url, TwinProcess.USER, null, file.toString(),
                false, options)), false);
    }

    /** Retries with short backoff, so a fault that outlives them fails the run within a second or two. */
    static final String FAST_RETRIES = "retry:\n  max_retries: 4\n  initial_backoff: 10ms\n  max_backoff: 50ms\n";

    private BatchManifest manifest(String db) throws Exception {
        return manifest(db, FAST_RETRIES);
    }

    private BatchManifest manifest(String db, String retry) throws Exception {
        Path file = Manifests.fullRefresh(dir, "sales", db, "route: typed_binary_streaming\norder_by: [sale_id]");
        Files.writeString(file, Files.readString(file).replace("connection_ref: " + TestEngines.CLICKHOUSE,
            "connection_ref: " + SERVER) + "\n" + retry);
        return ManifestLoader.load(file);
    }

    private static void fault(String query) throws Exception {
        twin.fault(query);
    }

    /** Loads 3000 rows once (the published generation), then runs again under {@code fault}; returns that report. */
    private RunReport failedAfterAGoodRun(String fault, Map<String, String> options) throws Exception {
        return afterAGoodRun(fault, options, FAST_RETRIES, false);
    }

    /**
     * Loads 3000 rows once, then runs again under {@code fault} with the manifest's {@code retry} block; asserts
     * whether that run passed and, when it did not, that the published generation is untouched.
     */
    private RunReport afterAGoodRun(String fault, Map<String, String> options, String retry, boolean passes)
            throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("twin_fail");
        ConnectionContext ctx = context(h2, twin.url(), twin.password(), options);
        BatchManifest m = manifest(db, retry);
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             DponeCamel camel = DponeCamel.start(null, false);
             ClickHouseEndpoint ch = ClickHouseEndpoints.open(context(h2, twin.url(), twin.password(), Map.of())
                 .resolve(SERVER, ConnectionType.CLICKHOUSE, "test"))) {
            DemoSalesGenerator.seed(src, 3_000, 3);
            RunReport good = new FullRefreshRunner(camel, ctx, dir).run(m, "good", ProgressListener.NONE);
            assertTrue(good.passed(), () -> "the good run: " + good.blockers());
            fault(fault);
            RunReport bad;
            try {
                bad = new FullRefreshRunner(camel, ctx, dir).run(m, "bad", ProgressListener.NONE);
            } finally {
                fault("clear");
            }
            assertEquals(passes, bad.passed(), String.valueOf(bad.blockers()));
            assertEquals(List.of(List.of("3000", passes ? "bad" : "good")), ch.query("SELECT count(), "
                + "any(__dpone__run_id) FROM " + ClickHouseSql.table(db, "sales")),
                "the published generation is the old or the new one, complete");
            assertEquals(List.of(List.of("sales")), ch.query("SELECT name FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db)), "no staging table is left");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            return bad;
        }
    }

    private static void assertTyped(RunReport r, String code) {
        String json = ReportWriter.json(r);
        assertTrue(r.blockers().stream().anyMatch(b -> b.code().equals(code)), json);
        assertFalse(json.contains(twin.password()), json);
        assertFalse(json.contains(twin.url()) || json.contains("127.0.0.1"), json);
    }

    private RunReport runAgainst(String url, String password) throws Exception {
        String h2 = TestEngines.newH2Url();
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             DponeCamel camel = DponeCamel.start(null, false)) {
            DemoSalesGenerator.seed(src, 100, 3);
            return new FullRefreshRunner(camel, context(h2, url, password, Map.of()), dir)
                .run(manifest(TestEngines.newDatabase("twin_fail")), "r1", ProgressListener.NONE);
        }
    }

    @Test
    void aWrongPasswordIsATypedBlockerNamingNoSecret() throws Exception {
        String wrong = "wrong-" + System.nanoTime();
        RunReport r = runAgainst(twin.url(), wrong);
        assertFalse(r.passed());
        assertTyped(r, "sink.load_failed");
        assertFalse(ReportWriter.json(r).contains(wrong));
        assertTrue(ReportWriter.json(r).contains("516") || ReportWriter.json(r).contains("AUTHENTICATION_FAILED"),
            ReportWriter.json(r));
    }

    @Test
    void aDeadPortIsConnectionFailedNamingTheAliasOnly() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RunReport r = runAgainst("http://127.0.0.1:" + port, twin.password());
        assertFalse(r.passed());
        assertTyped(r, "connection.failed");
        assertFalse(ReportWriter.json(r).contains(String.valueOf(port)), ReportWriter.json(r));
    }

    @Test
    void aServerFailingAnInsertMidLoadPublishesNothing() throws Exception {
        assertTyped(failedAfterAGoodRun("fail_insert=2", Map.of()), "sink.load_failed");
    }

    @Test
    void aServerErrorBodyIsRedactedByShape() throws Exception {
        // issue 37: a 500 body echoes whatever the server put in it; none of it reaches the report
        String body = "upstream admin:Hunter2pw@10.20.30.40:9000 said password=Sup3rSecret9 secret: s3cr3tV4lue "
            + "for ops@corp.example.com via ch-7.prod.internal";
        RunReport r = failedAfterAGoodRun("fail_insert=1&message=" + java.net.URLEncoder.encode(body,
            java.nio.charset.StandardCharsets.UTF_8), Map.of());
        assertTyped(r, "sink.load_failed");
        String json = ReportWriter.json(r);
        for (String leak : List.of("Hunter2pw", "10.20.30.40", "Sup3rSecret9", "s3cr3tV4lue", "ops@corp",
            "corp.example.com", "ch-7.prod.internal", "admin:")) {
            assertFalse(json.contains(leak), leak + " in " + json);
        }
        assertTrue(json.contains("MEMORY_LIMIT_EXCEEDED"), "the server's error name stays: " + json);
    }

    @Test
    void anHttp5xxFromAProxyPublishesNothing() throws Exception {
        assertTyped(failedAfterAGoodRun("http_status=502&times=100", Map.of()), "connection.failed");
    }

    @Test
    void aServerSlowerThanTheSocketTimeoutPublishesNothingWithRetriesOff() throws Exception {
        Map<String, String> options = new HashMap<>();
        options.put("socket_timeout", "2s");
        assertTyped(afterAGoodRun("delay_ms=5000&times=3", options, "retry:\n  max_retries: 0\n", false),
            "connection.failed");
    }

    @Test
    void aServerSlowerThanTheSocketTimeoutForAFewRequestsIsRetriedAndCounted() throws Exception {
        // issue 35: a timed-out request is transient; the idempotent ones are tried again and the run passes
        Map<String, String> options = new HashMap<>();
        options.put("socket_timeout", "1s");
        RunReport r = afterAGoodRun("delay_ms=3000&times=2", options,
            "retry:\n  max_retries: 6\n  initial_backoff: 10ms\n  max_backoff: 50ms\n", true);
        assertEquals(2, r.retries().retries(), String.valueOf(r.retries()));
        assertEquals(2L, r.retries().byKind().values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void http503sBeyondTheRetryBudgetFailTypedWithTheLastCause() throws Exception {
        RunReport r = failedAfterAGoodRun("http_status=503&times=100", Map.of());
        assertTyped(r, "connection.failed");
        assertTyped(r, "connection.retry_budget_exhausted");
        assertTrue(r.retries().budgetExhausted());
        assertEquals(4, r.retries().retries());
    }
}
