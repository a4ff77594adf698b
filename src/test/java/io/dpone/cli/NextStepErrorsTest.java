package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Redactor;
import io.dpone.error.DponeException;
import io.dpone.source.SourceConnections;
import io.dpone.testing.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36 item 4: a wrong alias, a missing context file or manifest and a dead server each print one message that
 * says the next step, through the redaction layer. Asserts the codes and the presence of the actionable facts.
 */
class NextStepErrorsTest {
    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(ConnectionContext.PROPERTY);
    }

    /** {@code dir/name} relative to the working directory, as a user types it (a relative path is not redacted). */
    private Path relative(String name) {
        return Path.of("").toAbsolutePath().relativize(dir.resolve(name).toAbsolutePath());
    }

    private Path manifest(String sourceAlias) throws Exception {
        String yaml = Files.readString(Path.of("examples/batch/embedded-full-refresh.batch.yaml"))
            .replace("connection_ref: mssql_demo", "connection_ref: " + sourceAlias);
        assertTrue(yaml.contains("connection_ref: " + sourceAlias));
        return Files.writeString(dir.resolve("m.batch.yaml"), yaml);
    }

    private static JsonNode blocker(CliRun r) throws Exception {
        assertEquals(1, r.exitCode(), r.stderr());
        assertEquals("", r.stdout());
        JsonNode blockers = new ObjectMapper().readTree(r.stderr()).path("blockers");
        assertEquals(1, blockers.size(), r.stderr());
        return blockers.get(0);
    }

    @Test
    void aWrongAliasOnTheEmbeddedDefaultListsTheAliasesAndSaysTheVariableIsNotSet() throws Exception {
        JsonNode b = blocker(CliRun.of("check", manifest("mssql_dmo").toString(), "--format", "json"));
        assertEquals("connection.ref_unknown", b.path("code").asText());
        String message = b.path("message").asText();
        assertTrue(message.contains("did you mean 'mssql_demo'?"), message);
        assertTrue(message.contains("mssql_demo (mssql), s3_stage (s3)") && message.contains("clickhouse_default"),
            message);
        assertTrue(message.contains("the embedded default (DPONE_RUNTIME_CONNECTION_CONTEXT is not set)"), message);
        assertEquals(List.of("clickhouse_default", "mssql_demo", "s3_stage"), new ObjectMapper().convertValue(
            b.path("details").path("defined_aliases"), List.class));
    }

    @Test
    void aWrongAliasInAContextFileNamesTheFileAndWhereItWasNamed() throws Exception {
        Files.writeString(dir.resolve("ctx.yaml"), """
            connections:
              clickhouse_default: {type: clickhouse, embedded: true}
              warehouse_src: {type: mssql, url: "jdbc:sqlserver://db.example.internal:1433;encrypt=false", user: etl,
                              password_env: SOME_PASSWORD}
            """);
        System.setProperty(ConnectionContext.PROPERTY, relative("ctx.yaml").toString());
        JsonNode b = blocker(CliRun.of("check", manifest("nothing_like_it").toString(), "--format", "json"));
        assertEquals("connection.ref_unknown", b.path("code").asText());
        String message = b.path("message").asText();
        assertTrue(message.contains("the file '" + relative("ctx.yaml") + "' named by " + ConnectionContext.PROPERTY),
            message);
        assertTrue(message.contains("it defines clickhouse_default (clickhouse), warehouse_src (mssql)"), message);
        assertFalse(message.contains("did you mean"), message);
        assertFalse(message.contains("db.example.internal"), message);
    }

    @Test
    void aMissingContextFileNamesThePathGivenAndTheWayBack() throws Exception {
        System.setProperty(ConnectionContext.PROPERTY, relative("no-such-context.yaml").toString());
        JsonNode b = blocker(CliRun.of("check", "examples/batch/embedded-full-refresh.batch.yaml", "--format", "json"));
        assertEquals("connection.context_invalid", b.path("code").asText());
        String message = b.path("message").asText();
        assertTrue(message.contains("'" + relative("no-such-context.yaml") + "'") && message.contains("does not exist"),
            message);
        assertTrue(message.contains("unset DPONE_RUNTIME_CONNECTION_CONTEXT"), message);
        // an absolute path is still redacted (the redaction decides what a message may show)
        System.setProperty(ConnectionContext.PROPERTY, dir.resolve("abs-missing.yaml").toAbsolutePath().toString());
        JsonNode abs = blocker(CliRun.of("check", "examples/batch/embedded-full-refresh.batch.yaml", "--format", "json"));
        assertFalse(abs.toString().contains(dir.toAbsolutePath().toString()), abs.toString());
        assertTrue(abs.path("message").asText().contains(Redactor.PATH_PLACEHOLDER), abs.toString());
    }

    @Test
    void aMissingManifestNamesThePathGiven() throws Exception {
        for (String verb : List.of("check", "plan")) {
            JsonNode b = blocker(CliRun.of(verb, relative("gone.batch.yaml").toString(), "--format", "json"));
            assertEquals("manifest.unreadable", b.path("code").asText());
            assertTrue(b.path("message").asText().contains("manifest file '" + relative("gone.batch.yaml")
                + "' not found (relative to the current directory)"), b.toString());
        }
        CliRun text = CliRun.of("run", relative("gone.batch.yaml").toString(), "--run-id", "gone-1");
        assertEquals(1, text.exitCode());
        assertTrue(text.stderr().contains("'" + relative("gone.batch.yaml") + "' not found"), text.stderr());
    }

    @Test
    void aDeadSqlServerSaysWhatToCheckWithoutItsEndpoint() {
        ConnectionSpec spec = new ConnectionSpec("warehouse_src", ConnectionType.MSSQL,
            "jdbc:sqlserver://127.0.0.1:1;databaseName=x;encrypt=false;loginTimeout=2", "etl", null, false, Map.of(),
            "password_env WAREHOUSE_PASSWORD");
        Redactor.global().registerEndpoint(spec.url()); // as a context holding this alias does
        DponeException e = org.junit.jupiter.api.Assertions.assertThrows(DponeException.class,
            () -> SourceConnections.open(spec, "dpone"));
        assertEquals("connection.failed", e.blockers().get(0).code());
        String message = Redactor.global().redact(e.blockers().get(0).message());
        assertTrue(message.contains("check that the SQL Server of alias 'warehouse_src' is running and reachable"),
            message);
        assertTrue(message.contains("at the host and port in its url"), message);
        assertFalse(message.contains("127.0.0.1") || message.contains(Redactor.HOST_PLACEHOLDER), message);
        assertFalse(e.blockers().get(0).message().contains("127.0.0.1"), "not even before the redaction layer");
    }

    @Test
    void aRefusedLoginNamesTheUserAndTheCredentialSource() throws Exception {
        String url = io.dpone.connect.EmbeddedDefaults.h2Url(dir.resolve("login"));
        try (var c = java.sql.DriverManager.getConnection(url, "owner", "right-password-1")) {
            c.createStatement().execute("SELECT 1");
        }
        ConnectionSpec spec = new ConnectionSpec("local_src", ConnectionType.MSSQL, url, "owner",
            io.dpone.connect.Secret.of("wrong-password-2"), false, Map.of(), "password_env LOCAL_PASSWORD");
        DponeException e = org.junit.jupiter.api.Assertions.assertThrows(DponeException.class,
            () -> SourceConnections.open(spec, "dpone"));
        String message = e.blockers().get(0).message();
        assertEquals("connection.failed", e.blockers().get(0).code());
        assertTrue(message.contains("check the user 'owner' of alias 'local_src' and its credential "
            + "(password_env LOCAL_PASSWORD)"), message);
        assertFalse(message.contains("wrong-password-2"), message);
    }

    @Test
    void aMissingEmbeddedSourceDatabaseSaysToSeedIt() {
        String url = io.dpone.connect.EmbeddedDefaults.h2Url(dir.resolve("never-seeded")) + ";IFEXISTS=TRUE";
        ConnectionSpec spec = new ConnectionSpec("mssql_demo", ConnectionType.MSSQL, url, "sa", null, false, Map.of());
        DponeException e = org.junit.jupiter.api.Assertions.assertThrows(DponeException.class,
            () -> SourceConnections.open(spec, "dpone"));
        assertTrue(e.blockers().get(0).message().contains("run 'dpone demo seed' first"), e.blockers().toString());
    }
}
