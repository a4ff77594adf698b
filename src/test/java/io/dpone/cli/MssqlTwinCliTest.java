package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.testing.mssql.MssqlTwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's two steps with the source on the SQL Server twin, as a user with a server runs them: a connection
 * context naming a {@code jdbc:sqlserver:} URL and the password's environment variable, {@code demo seed --connection}
 * through mssql-jdbc, then {@code run}; and the same context with a wrong password: one typed failure naming the
 * alias, with neither the password nor the endpoint. Each command is its own JVM, as {@code bin/dpone} runs it.
 */
@io.dpone.testing.ProcessTest
class MssqlTwinCliTest {
    static MssqlTwinProcess twin;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        twin = MssqlTwinProcess.start(dir.resolve("twin"));
    }

    @AfterAll
    static void stop() {
        if (twin != null) {
            twin.close();
        }
    }

    record Result(int exit, String stdout, String stderr) {
    }

    static Result dpone(String password, String... args) throws Exception {
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              mssql_demo:
                type: mssql
                url: "%s"
                user: %s
                password_env: TWIN_SQL_PASSWORD
              clickhouse_default:
                type: clickhouse
                embedded: true
                options: {path: "%s"}
            """.formatted(twin.tlsUrl(), MssqlTwinProcess.USER, dir.resolve("home").resolve("clickhouse")));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        int exit = io.dpone.testing.ChildJvm.cli().args(args).env("DPONE_RUNTIME_CONNECTION_CONTEXT", context.toString())
            .env("DPONE_HOME", dir.resolve("home").toString()).env("TWIN_SQL_PASSWORD", password).stdout(out).stderr(err)
            .run(java.time.Duration.ofSeconds(300), "dpone " + String.join(" ", args));
        return new Result(exit, Files.readString(out), Files.readString(err));
    }

    @Test
    void demoSeedAndRunThroughTheDriverAndAWrongPasswordIsOneTypedFailure() throws Exception {
        Result seed = dpone(twin.password(), "demo", "seed", "--connection", "mssql_demo", "--rows", "5000", "-q");
        assertEquals(0, seed.exit(), seed.stderr());

        Result run = dpone(twin.password(), "run", Path.of("examples/batch/embedded-full-refresh.batch.yaml")
            .toAbsolutePath().toString(), "--run-id", "twin-cli-1", "--format", "json");
        assertEquals(0, run.exit(), run.stderr());
        JsonNode report = new ObjectMapper().readTree(run.stdout());
        assertTrue(report.path("passed").asBoolean(), run.stdout());
        assertEquals(5000, report.path("loaded_rows").asLong(), run.stdout());

        String wrong = "Not-The-Password-" + System.nanoTime();
        Result denied = dpone(wrong, "run", Path.of("examples/batch/embedded-full-refresh.batch.yaml")
            .toAbsolutePath().toString(), "--run-id", "twin-cli-2");
        assertEquals(1, denied.exit(), denied.stderr());
        assertEquals("", denied.stdout());
        assertTrue(denied.stderr().contains("connection.failed"), denied.stderr());
        assertTrue(denied.stderr().contains("mssql_demo"), denied.stderr());
        for (String leak : List.of(wrong, twin.password(), ":" + twin.port(), "127.0.0.1", "\tat ")) {
            assertFalse(denied.stderr().contains(leak), () -> leak + " in " + denied.stderr());
        }
    }
}
