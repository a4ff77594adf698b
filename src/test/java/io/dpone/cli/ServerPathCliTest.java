package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        ProcessBuilder pb = new ProcessBuilder(List.of(io.dpone.testing.ChildJvm.JAVA, io.dpone.testing.ChildJvm.tmpdir(), "-cp", System.getProperty("java.class.path"), "io.dpone.cli.DponeCli", "run",
            Path.of("examples/batch/embedded-full-refresh.batch.yaml").toAbsolutePath().toString(), "--run-id",
            "dead-1"))
            .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("DPONE_RUNTIME_CONNECTION_CONTEXT", context.toString());
        pb.environment().put("DPONE_HOME", home.toString());
        pb.environment().put("CH_PW", "secret-" + port);
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String stderr = Files.readString(err);
        assertEquals(1, p.exitValue(), stderr);
        assertEquals("", Files.readString(out));
        assertTrue(stderr.contains("connection.failed at clickhouse_default"), stderr);
        assertFalse(stderr.contains("127.0.0.1") || stderr.contains(":" + port), stderr);
        assertFalse(stderr.contains("\tat ") || stderr.contains("WARN"), stderr);
        assertFalse(stderr.contains("secret-" + port), stderr);
    }
}
