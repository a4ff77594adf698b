package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpone run} into a server ClickHouse alias whose port is dead, as a user runs it: one typed failure on
 * stderr, nothing on stdout, and none of the ClickHouse client's own retry warnings and stack traces (which name the
 * endpoint) on any channel.
 */
@io.dpone.testing.ProcessTest
class ServerPathCliTest {
    @TempDir
    Path dir;

    @Test
    void aDeadServerIsOneTypedFailureWithNoEndpointAndNoClientStackTrace() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path home = dir.resolve("home");
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              mssql_demo: {type: mssql, url: "jdbc:h2:mem:nothing;MODE=MSSQLServer", user: sa}
              clickhouse_default: {type: clickhouse, url: "http://127.0.0.1:%d", user: analyst, password_env: CH_PW}
            """.formatted(port));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        int exit = io.dpone.testing.ChildJvm.cli().args("run", Path.of("examples/batch/embedded-full-refresh.batch.yaml")
                .toAbsolutePath().toString(), "--run-id", "dead-1")
            .env("DPONE_RUNTIME_CONNECTION_CONTEXT", context.toString()).env("DPONE_HOME", home.toString())
            .env("CH_PW", "secret-" + port).stdout(out).stderr(err).run(java.time.Duration.ofSeconds(120), "dpone run");
        String stderr = Files.readString(err);
        assertEquals(1, exit, stderr);
        assertEquals("", Files.readString(out));
        assertTrue(stderr.contains("connection.failed at clickhouse_default"), stderr);
        assertFalse(stderr.contains("127.0.0.1") || stderr.contains(":" + port), stderr);
        assertFalse(stderr.contains("\tat ") || stderr.contains("WARN"), stderr);
        assertFalse(stderr.contains("secret-" + port), stderr);
    }
}
