package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.testing.CliRun;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plants a real source password, a JDBC URL and local paths in the connection context, then runs the CLI through
 * success and several failures: no stdout or stderr text (documents and log lines) may contain any of them.
 */
@io.dpone.testing.EngineTest
class CliRedactionTest {
    static final String PASSWORD = "Planted-Secr3t-Value!";
    static final String WRONG_PASSWORD = "Wrong-Planted-Pa55word";

    @TempDir
    Path dir;
    String db;
    Path contextFile;
    String h2Url;

    @BeforeEach
    void setUp() throws Exception {
        db = TestEngines.newDatabase("redact");
        h2Url = EmbeddedDefaults.h2Url(dir.resolve("secret-source"));
        try (Connection c = DriverManager.getConnection(h2Url, "etl", PASSWORD)) {
            DemoSalesGenerator.seed(c, 500, 3);
        }
        Files.writeString(dir.resolve("pw"), PASSWORD + "\n");
        Files.writeString(dir.resolve("wrong-pw"), WRONG_PASSWORD);
        contextFile = context("pw");
        System.setProperty(ConnectionContext.PROPERTY, contextFile.toString());
    }

    @AfterEach
    void tearDown() {
        System.clearProperty(ConnectionContext.PROPERTY);
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    private Path context(String passwordFile) throws Exception {
        return Files.writeString(dir.resolve("context-" + passwordFile + ".yaml"), """
            connections:
              mssql_test:
                type: mssql
                url: "%s"
                user: etl
                password_file: %s
              clickhouse_test:
                type: clickhouse
                embedded: true
                options: {path: "%s"}
            """.formatted(h2Url, dir.resolve(passwordFile), TestEngines.clickHousePath()));
    }

    private void assertClean(CliRun run) {
        for (String text : List.of(run.stdout(), run.stderr())) {
            assertFalse(text.contains(PASSWORD), text);
            assertFalse(text.contains(WRONG_PASSWORD), text);
            assertFalse(text.contains("jdbc:"), text);
            assertFalse(text.contains(dir.toString()), text);
            assertFalse(text.contains(TestEngines.clickHousePath().toString()), text);
        }
    }

    @Test
    void successfulRunPrintsNoSecretUrlOrPath() {
        Path manifest = Manifests.fullRefresh(dir, "sales", db, null);
        CliRun run = CliRun.of("run", manifest.toString(), "--run-id", "redact-1", "--format", "json");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("\"passed\" : true"));
        assertClean(run);
    }

    @Test
    void failedConnectionPrintsATypedBlockerWithoutTheCredential() throws Exception {
        System.setProperty(ConnectionContext.PROPERTY, context("wrong-pw").toString());
        Path manifest = Manifests.fullRefresh(dir, "sales", db, null);
        CliRun run = CliRun.of("run", manifest.toString(), "--run-id", "redact-2", "--format", "json");
        assertEquals(1, run.exitCode());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().contains("connection.failed"), run.stderr());
        assertClean(run);
    }

    @Test
    void textFormatAndCheckAreCleanToo() {
        Path manifest = Manifests.fullRefresh(dir, "sales", db, null);
        assertClean(CliRun.of("check", manifest.toString(), "--format", "text"));
        CliRun run = CliRun.of("run", manifest.toString(), "--run-id", "redact-3");
        assertEquals(0, run.exitCode(), run.stderr());
        assertClean(run);
        CliRun missing = CliRun.of("run", Manifests.fullRefresh(dir, "nope", db, null).toString(),
            "--run-id", "redact-4");
        assertEquals(1, missing.exitCode());
        assertTrue(missing.stderr().contains("source.table_missing"), missing.stderr());
        assertClean(missing);
    }

    @Test
    void everyLineWrittenToTheProcessStreamsIsRedacted() {
        io.dpone.connect.Secret.of(PASSWORD);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream stream = new RedactingPrintStream(new PrintStream(sink, true, StandardCharsets.UTF_8));
        stream.println("driver said: login failed for password " + PASSWORD + " at " + h2Url);
        stream.print("partial " + PASSWORD);
        stream.flush();
        String out = sink.toString(StandardCharsets.UTF_8);
        assertFalse(out.contains(PASSWORD), out);
        assertFalse(out.contains("jdbc:"), out);
        assertTrue(out.contains("driver said: login failed"), out);
    }
}
