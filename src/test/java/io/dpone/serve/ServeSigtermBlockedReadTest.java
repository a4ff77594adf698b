package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.HostileServer;
import io.dpone.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SIGTERM to a forked {@code dpone serve} whose job is blocked reading from a server that accepted the
 * connection and never answers (its login and socket timeouts far above the shutdown bound): the process exits
 * within {@code shutdown.timeout} and a margin, not when the read would have timed out. The same for {@code dpone run}:
 * it exits once the signal's report has waited its grace, reporting {@code runtime.interrupted}.
 */
@io.dpone.testing.ProcessTest
class ServeSigtermBlockedReadTest {
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);
    /** JVM exit, Camel's own stop steps and a loaded machine, beyond the configured bound. */
    private static final Duration MARGIN = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    /** A connection context naming the two silent servers, with login and socket timeouts far above any bound. */
    private Path context(HostileServer sql, HostileServer clickhouse) {
        return Manifests.write(dir.resolve("context.yaml"), """
                connections:
                  mssql_silent:
                    type: mssql
                    url: "jdbc:sqlserver://127.0.0.1:%d;databaseName=sales;encrypt=false"
                    user: dpone
                    password_env: DPONE_TEST_SILENT_PASSWORD
                    options: {login_timeout: 600s, socket_timeout: 600s}
                  clickhouse_silent:
                    type: clickhouse
                    url: "http://127.0.0.1:%d"
                    options: {socket_timeout: 600s}
                """.formatted(sql.port(), clickhouse.port()));
    }

    private Path manifest() {
        return Manifests.write(dir.resolve("sales.batch.yaml"), """
                name: blocked
                source:
                  type: mssql
                  connection_ref: mssql_silent
                  table: {schema: dbo, name: sales}
                sink:
                  type: clickhouse
                  connection_ref: clickhouse_silent
                  table: {schema: analytics, name: sales}
                  staging: {schema: analytics}
                  strategy: {mode: full_refresh}
                  options: {lineage: false}
                """);
    }

    @Test
    void sigtermDuringABlockedReadExitsWithinTheShutdownBound() throws Exception {
        try (HostileServer sql = new HostileServer(HostileServer.Mode.SILENT, 0, 0);
             HostileServer clickhouse = new HostileServer(HostileServer.Mode.SILENT, 0, 0)) {
            Path context = context(sql, clickhouse);
            Path manifest = manifest();
            int port = ServeFixture.freePort();
            Path config = Manifests.write(dir.resolve("serve.yaml"), """
                shutdown: {timeout: %ds}
                readiness: {probe_timeout: 1s}
                jobs:
                  - name: sales
                    manifest: %s
                    schedule: {every: 1h, start_after: 100ms}
                """.formatted(SHUTDOWN_TIMEOUT.toSeconds(), manifest));
            Path stderr = dir.resolve("stderr.txt");
            Process p = io.dpone.testing.ChildJvm.cli().jvm("-Xmx256m").args("serve", "--config", config.toString(),
                    "--http-port", String.valueOf(port), "--state-dir", dir.resolve("state").toString())
                .env("DPONE_RUNTIME_CONNECTION_CONTEXT", context.toString())
                .env("DPONE_TEST_SILENT_PASSWORD", "not-a-real-password")
                .env("DPONE_HOME", dir.resolve("home").toString())
                .stdout(dir.resolve("stdout.txt")).stderr(stderr).start();
            try {
                await(Duration.ofSeconds(60), "liveness of the forked serve",
                    () -> get(port, ServeRuntime.HEALTH_LIVE).status() == 200);
                // readiness probes each alias once (and hangs there); a further connection is the job's run
                await(Duration.ofSeconds(60), "the job's run to block on a silent server",
                    () -> sql.accepted() + clickhouse.accepted() >= 3);
                long t0 = System.nanoTime();
                p.destroy(); // SIGTERM
                int exit = io.dpone.testing.Await.exit(p, Duration.ofSeconds(120), "the serve after SIGTERM");
                Duration took = Duration.ofNanos(System.nanoTime() - t0);
                System.out.println("SIGTERM to exit with the run blocked on a silent server: " + took.toMillis()
                    + " ms (shutdown.timeout " + SHUTDOWN_TIMEOUT.toSeconds() + "s)");
                assertEquals(143, exit, "exit on SIGTERM: " + Files.readString(stderr));
                assertTrue(took.compareTo(SHUTDOWN_TIMEOUT.plus(MARGIN)) < 0, "stopped in " + took.toMillis()
                    + " ms, bound " + SHUTDOWN_TIMEOUT.plus(MARGIN).toMillis() + " ms");
            } finally {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void sigtermToARunBlockedOnASilentServerEndsWithinTheInterruptGrace() throws Exception {
        try (HostileServer sql = new HostileServer(HostileServer.Mode.SILENT, 0, 0);
             HostileServer clickhouse = new HostileServer(HostileServer.Mode.SILENT, 0, 0)) {
            Path context = context(sql, clickhouse);
            Path manifest = manifest();
            Path stderr = dir.resolve("run-stderr.txt");
            Process p = io.dpone.testing.ChildJvm.cli().jvm("-Xmx256m").args("run", manifest.toString(),
                    "--run-id", "blocked-1", "--format", "json")
                .env("DPONE_RUNTIME_CONNECTION_CONTEXT", context.toString())
                .env("DPONE_TEST_SILENT_PASSWORD", "not-a-real-password")
                .env("DPONE_HOME", dir.resolve("home").toString())
                .stdout(dir.resolve("run-stdout.txt")).stderr(stderr).start();
            try {
                await(Duration.ofSeconds(60), "the run to block on a silent server",
                    () -> sql.accepted() + clickhouse.accepted() >= 1);
                long t0 = System.nanoTime();
                p.destroy(); // SIGTERM
                int exit = io.dpone.testing.Await.exit(p, Duration.ofSeconds(120), "the run after SIGTERM");
                Duration took = Duration.ofNanos(System.nanoTime() - t0);
                System.out.println("SIGTERM to exit with dpone run blocked on a silent server: " + took.toMillis()
                    + " ms");
                assertEquals(143, exit, "exit on SIGTERM: " + Files.readString(stderr));
                assertTrue(Files.readString(stderr).contains("runtime.interrupted"), Files.readString(stderr));
                // the signal's report waits DponeCli.INTERRUPT_GRACE (15 s) for the blocked command; camel-main's own
                // hangup hook used to hold the JVM for shutdownTimeout + 15 s more (45 s in all)
                Duration bound = Duration.ofSeconds(15).plus(MARGIN).plus(MARGIN);
                assertTrue(took.compareTo(bound) < 0, "stopped in " + took.toMillis() + " ms, bound "
                    + bound.toMillis() + " ms");
            } finally {
                p.destroyForcibly();
            }
        }
    }
}
