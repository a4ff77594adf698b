package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.testing.HostileServer;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health and metrics never wait on a dependency: with a SQL Server that accepts connections and never answers,
 * liveness, readiness and the metrics scrape answer at once, and the alias shows DOWN when its probe passes its
 * deadline. The management port binds loopback by default; a port out of range or taken is refused typed before
 * anything starts.
 */
@io.dpone.testing.EngineTest
class ServeHealthIsolationTest {
    @TempDir
    Path dir;

    static Duration timed(Runnable r) {
        long start = System.nanoTime();
        r.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Test
    void liveReadyAndMetricsAnswerWhileADependencyHangs() throws Exception {
        try (HostileServer silent = new HostileServer(HostileServer.Mode.SILENT, 0, 0)) {
            Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
            ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest,
                "{every: 1h, start_after: 1h}", "readiness: {connections: [mssql_silent], probe_timeout: 1s}"));
            Map<String, ContextEntry> entries = new HashMap<>();
            ConnectionContext base = TestEngines.context(TestEngines.newH2Url());
            entries.put(TestEngines.SOURCE, base.entry(TestEngines.SOURCE).orElseThrow());
            entries.put(TestEngines.CLICKHOUSE, base.entry(TestEngines.CLICKHOUSE).orElseThrow());
            entries.put("mssql_silent", new ContextEntry("mssql_silent", ConnectionType.MSSQL,
                "jdbc:sqlserver://127.0.0.1:" + silent.port() + ";databaseName=x;encrypt=false", "dpone", null, null,
                false, Map.of("login_timeout", "120s")));
            int port = config.httpPort();
            try (ServeRuntime serve = ServeRuntime.start(config, ConnectionContext.of(entries, false), Map.of())) {
                await(Duration.ofSeconds(20), "the silent server to be probed", () -> silent.accepted() > 0);
                await(Duration.ofSeconds(20), "the hung probe to pass its deadline", () -> get(port,
                    ServeRuntime.HEALTH + "?data=true").body().contains("did not answer within 1000 ms"));
                for (int i = 0; i < 5; i++) {
                    for (String path : new String[] {ServeRuntime.HEALTH_LIVE, ServeRuntime.HEALTH_READY,
                        ServeRuntime.METRICS, ServeRuntime.HEALTH}) {
                        int[] status = new int[1];
                        Duration took = timed(() -> status[0] = get(port, path).status());
                        assertTrue(took.compareTo(Duration.ofSeconds(3)) < 0, path + " took " + took);
                        assertEquals(path.equals(ServeRuntime.HEALTH) ? 503 : 200, status[0], path);
                    }
                }
                assertEquals(0.0, sample(get(port, ServeRuntime.METRICS).body(), "dpone_connection_up",
                    "alias=\"mssql_silent\""), 0.0);
                assertEquals(1, silent.accepted(), "no second probe while the first hangs");
            }
        }
    }

    @Test
    void aPortOutOfRangeOrTakenIsRefusedTypedBeforeStart() throws Exception {
        for (int bad : new int[] {-1, 0, 65536}) {
            DponeException e = assertThrows(DponeException.class, () -> ServeRuntime.checkHttpPort("127.0.0.1", bad));
            assertEquals(BlockerCode.SERVE_HTTP_PORT_INVALID.code(), e.blockers().get(0).code());
        }
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
            ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest,
                "{every: 1h, start_after: 1h}", null)).withHttpPort(taken.getLocalPort());
            DponeException e = assertThrows(DponeException.class,
                () -> ServeRuntime.start(config, TestEngines.context(TestEngines.newH2Url()), Map.of()).close());
            assertEquals(BlockerCode.SERVE_HTTP_PORT_UNAVAILABLE.code(), e.blockers().get(0).code());
        }
    }

    @Test
    void theCommandRefusesAPortOutOfRangeTyped() throws Exception {
        Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
        Path config = ServeFixture.config(dir, manifest, "{every: 1h, start_after: 1h}", null);
        for (String bad : new String[] {"-1", "0", "65536"}) {
            io.dpone.testing.CliRun run = io.dpone.testing.CliRun.of("serve", "--config", config.toString(),
                "--http-port", bad, "--log-format", "json");
            assertEquals(1, run.exitCode(), bad + ": " + run.stderr());
            assertEquals("", run.stdout());
            assertTrue(run.stderr().contains("serve.http_port_invalid"), run.stderr());
            assertTrue(!run.stderr().contains("\tat "), "no stack trace: " + run.stderr());
        }
    }

    @Test
    void theManagementPortBindsLoopbackByDefault() throws Exception {
        Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h, start_after: 1h}",
            null));
        assertEquals("127.0.0.1", config.httpHost());
        assertEquals("127.0.0.1", ServeRuntime.properties(config).get("camel.management.host"));
        InetAddress external = null;
        for (NetworkInterface nic : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : java.util.Collections.list(nic.getInetAddresses())) {
                if (!a.isLoopbackAddress() && a instanceof java.net.Inet4Address) {
                    external = a;
                }
            }
        }
        try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(TestEngines.newH2Url()), Map.of())) {
            await(Duration.ofSeconds(20), "liveness on loopback",
                () -> get(config.httpPort(), ServeRuntime.HEALTH_LIVE).status() == 200);
            if (external != null) {
                InetAddress target = external;
                assertThrows(java.io.IOException.class, () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(target, config.httpPort()), 2000);
                    }
                }, "the port is not reachable on " + external);
            }
        }
    }
}
