package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.ConnectionContext;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpone check --connect} (issue 29 item 3): before a run, every column of the source table is listed with
 * the ClickHouse type it lands as and the policy in force, and everything that cannot move is refused at once with
 * its way out; without {@code --connect} nothing connects and the document has no column list.
 */
@io.dpone.testing.EngineTest
class CheckConnectTest {
    @TempDir
    Path dir;
    String h2;
    Connection source;

    @BeforeEach
    void setUp() throws Exception {
        h2 = TestEngines.newH2Url();
        source = DriverManager.getConnection(h2, "sa", "");
        try (Statement st = source.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE TABLE dbo.dims (id INT NOT NULL PRIMARY KEY, valid_from DATE NOT NULL, "
                + "valid_to DATETIME2(7), at_time TIME(7), tags INT ARRAY, spans INTERVAL DAY, note NVARCHAR(20))");
        }
        System.setProperty(ConnectionContext.PROPERTY, Files.writeString(dir.resolve("context.yaml"), """
            connections:
              src: {type: mssql, url: "%s", user: sa}
              dst: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(h2, TestEngines.clickHousePath())).toString());
    }

    @AfterEach
    void tearDown() throws Exception {
        System.clearProperty(ConnectionContext.PROPERTY);
        source.close();
    }

    private Path manifest(String extra) throws Exception {
        return Files.writeString(dir.resolve("m.batch.yaml"), """
            source:
              type: mssql
              connection_ref: src
              table: {schema: dbo, name: dims}
            %s
            sink:
              type: clickhouse
              connection_ref: dst
              table: {schema: chk, name: dims}
              strategy: {mode: full_refresh}
              options: {order_by: [valid_to]}
            """.formatted(extra));
    }

    /** A failed check's document goes to stderr, a passed one's to stdout (the CLI's convention). */
    private static JsonNode doc(CliRun run) throws Exception {
        return new ObjectMapper().readTree(run.exitCode() == 0 ? run.stdout() : run.stderr());
    }

    @Test
    void listsEveryColumnWithItsMappingAndPolicyAndRefusesEverythingThatCannotMoveAtOnce() throws Exception {
        Path m = manifest("  value_policy: {default: clamp}");
        CliRun run = CliRun.of("check", m.toString(), "--connect", "--format", "json");
        assertEquals(1, run.exitCode(), run.stderr());
        JsonNode doc = doc(run);
        List<String> codes = new ArrayList<>();
        doc.get("blockers").forEach(b -> codes.add(b.get("code").asText() + "@" + b.get("subject").asText()));
        assertEquals(List.of("source.type_unsupported@dbo.dims.tags", "source.type_unsupported@dbo.dims.spans"), codes);
        assertTrue(doc.get("blockers").get(0).get("message").asText().contains("source.columns"),
            "the way out is named");
        JsonNode cols = doc.get("columns");
        assertEquals(7, cols.size());
        assertEquals("Int32", cols.get(0).get("targets").get(0).get("clickhouse_type").asText());
        assertEquals("refuse", cols.get(0).get("targets").get(0).get("policy").asText(), "a key takes no default");
        assertTrue(cols.get(0).get("primary_key").asBoolean());
        assertEquals("Date32", cols.get(1).get("targets").get(0).get("clickhouse_type").asText());
        assertEquals("clamp", cols.get(1).get("targets").get(0).get("policy").asText());
        assertEquals("Nullable(DateTime64(7, 'UTC'))", cols.get(2).get("targets").get(0).get("clickhouse_type").asText());
        assertEquals("Nullable(Time64(7))", cols.get(3).get("targets").get(0).get("clickhouse_type").asText());
        assertEquals("refuse", cols.get(3).get("targets").get(0).get("policy").asText(), "a time cannot be out of range");
        assertTrue(cols.get(4).get("refused").asText().startsWith("source.type_unsupported"));
        assertEquals(1, doc.get("notes").size(), "order_by under clamp is said");
        assertTrue(doc.get("notes").get(0).asText().contains("valid_to"));

        CliRun text = CliRun.of("check", m.toString(), "--connect", "--format", "text");
        assertEquals(1, text.exitCode());
        String out = text.stdout() + text.stderr();
        assertTrue(out.contains("valid_from") && out.contains("Date32 [clamp]"), out);
        assertTrue(out.contains("REFUSED source.type_unsupported"), out);
        assertFalse(out.contains(h2), "no endpoint");
    }

    @Test
    void withTheUnmovableColumnsLeftOutItPassesAndWithoutConnectNothingIsListed() throws Exception {
        Path m = manifest("  columns: [id, valid_from, valid_to, at_time, note]");
        CliRun run = CliRun.of("check", m.toString(), "--connect", "--format", "json");
        assertEquals(0, run.exitCode(), run.stdout());
        JsonNode doc = doc(run);
        assertEquals(7, doc.get("columns").size());
        assertFalse(doc.get("columns").get(4).get("selected").asBoolean());
        List<String> reached = new ArrayList<>();
        doc.get("connections").forEach(c -> reached.add(c.get("alias").asText() + ":" + c.get("type").asText() + ":"
            + c.get("path").asText() + ":" + c.get("reached").asBoolean()));
        assertEquals(List.of("src:mssql:source.connection_ref:true", "dst:clickhouse:sink.connection_ref:true"),
            reached, "every referenced alias is reached and said");
        CliRun plain = CliRun.of("check", m.toString(), "--format", "json");
        assertEquals(0, plain.exitCode());
        assertFalse(doc(plain).has("columns"));
        assertFalse(doc(plain).has("connections"), "without --connect nothing is opened");
    }

    @Test
    void aPolicyThatCannotApplyIsReportedWithTheColumnRefusals() throws Exception {
        Path m = manifest("  value_policy: {columns: {valid_from: 'null', id: clamp}}");
        CliRun run = CliRun.of("check", m.toString(), "--connect", "--format", "json");
        assertEquals(1, run.exitCode());
        JsonNode doc = doc(run);
        List<String> subjects = new ArrayList<>();
        doc.get("blockers").forEach(b -> subjects.add(b.get("subject").asText()));
        assertTrue(subjects.contains("source.value_policy.columns.valid_from"), subjects::toString);
        assertTrue(subjects.contains("source.value_policy.columns.id"), subjects::toString);
        assertTrue(subjects.contains("dbo.dims.tags"), subjects::toString);
    }

    /**
     * Issue 36 item 3: a sink that does not answer is said per alias with what to check, while the source is still
     * reached and its columns listed; no host, port or URL of either reaches the output.
     */
    @Test
    void aDeadSinkIsSaidPerAliasWithTheNextStepAndTheSourceIsStillChecked() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort(); // closed again before the check: nothing listens there
        }
        System.setProperty(ConnectionContext.PROPERTY, Files.writeString(dir.resolve("dead.yaml"), """
            connections:
              src: {type: mssql, url: "%s", user: sa}
              dst: {type: clickhouse, url: "http://127.0.0.1:%d", user: default}
            """.formatted(h2, closed)).toString());
        Path m = manifest("  columns: [id, valid_from, valid_to, at_time, note]");
        for (String format : List.of("json", "text")) {
            CliRun run = CliRun.of("check", m.toString(), "--connect", "--format", format);
            assertEquals(1, run.exitCode(), run.stdout());
            String out = run.stdout() + run.stderr();
            assertFalse(out.contains(Integer.toString(closed)) || out.contains("127.0.0.1") || out.contains(h2),
                () -> "no endpoint: " + out);
            if (format.equals("json")) {
                JsonNode doc = doc(run);
                assertEquals(1, doc.get("blockers").size(), doc.toString());
                JsonNode b = doc.get("blockers").get(0);
                assertEquals("connection.failed@sink.connection_ref", b.get("code").asText() + "@"
                    + b.get("subject").asText());
                assertTrue(b.get("message").asText().contains("'dst'")
                    && b.get("message").asText().contains("Check that ClickHouse is up"), b.toString());
                assertTrue(doc.get("connections").get(0).get("reached").asBoolean());
                assertFalse(doc.get("connections").get(1).get("reached").asBoolean());
                assertEquals(7, doc.get("columns").size(), "the source's half still runs");
            } else {
                assertTrue(out.contains("dst (clickhouse, sink.connection_ref): NOT reached"), out);
            }
        }
    }
}
