package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every {@code dpone demo} failure is typed and names neither the endpoint nor the statement. */
class DemoCommandErrorsTest {
    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(ConnectionContext.PROPERTY);
    }

    private void context(String url) throws Exception {
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              demo_src: {type: mssql, url: "%s", user: sa}
            """.formatted(url));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
    }

    @Test
    void anUnreachableSourceIsConnectionFailedWithoutItsHostOrPort() throws Exception {
        context("jdbc:sqlserver://127.0.0.1:1;databaseName=demo;encrypt=false;loginTimeout=2");
        CliRun r = CliRun.of("demo", "seed", "--rows", "1", "--connection", "demo_src", "-q");
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("connection.failed at demo_src"), r.stderr());
        assertFalse(r.stderr().contains("127.0.0.1") || r.stderr().contains("port 1"), r.stderr());
    }

    @Test
    void changesWithoutTheCdcEmulationAreTyped() throws Exception {
        String url = TestEngines.newH2Url();
        context(url);
        assertEquals(0, CliRun.of("demo", "seed", "--rows", "10", "--connection", "demo_src", "-q").exitCode());
        CliRun r = CliRun.of("demo", "changes", "--count", "5", "--connection", "demo_src");
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("source.table_missing") && r.stderr().contains("demo seed --cdc"), r.stderr());
        assertFalse(r.stderr().contains("jdbc:"), r.stderr());
        assertEquals(0, CliRun.of("demo", "seed", "--rows", "10", "--cdc", "--connection", "demo_src", "-q")
            .exitCode());
        CliRun ok = CliRun.of("demo", "changes", "--count", "25", "--connection", "demo_src");
        assertEquals(0, ok.exitCode(), ok.stderr());
        assertTrue(ok.stdout().startsWith("wrote 25 changes to dbo.sales in "), ok.stdout());
    }
}
