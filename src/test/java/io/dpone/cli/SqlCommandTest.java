package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpone sql} (issue 36 item 3): one read-only query into the embedded ClickHouse or a ClickHouse alias (the
 * HTTP twin here), as a text table or JSON; anything but a read is refused typed ({@code sql.not_read_only}) and
 * changes nothing; a server endpoint carries {@code readonly=1}; failures name the alias, never the endpoint.
 */
@io.dpone.testing.ProcessTest
class SqlCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;
    String db;

    @AfterEach
    void tearDown() {
        System.clearProperty(ConnectionContext.PROPERTY);
        if (db != null) {
            try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
                ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            }
        }
    }

    private void embeddedContext() throws Exception {
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              clickhouse_test: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(TestEngines.clickHousePath()));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
    }

    private String table() {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            db = TestEngines.newAtomicDatabase(ch, "sqlcmd");
            ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "t")
                + " (id Int32, name Nullable(String)) ENGINE = MergeTree ORDER BY id");
            ch.execute("INSERT INTO " + ClickHouseSql.table(db, "t") + " VALUES (1, 'one'), (2, NULL)");
        }
        return ClickHouseSql.table(db, "t");
    }

    private long count(String table) {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            return Long.parseLong(ch.query("SELECT count() FROM " + table).get(0).get(0));
        }
    }

    @Test
    void aSelectOnTheEmbeddedEnginePrintsATableAndJson() throws Exception {
        String t = table();
        embeddedContext();
        CliRun text = CliRun.of("sql", "--connection", "clickhouse_test", "SELECT id, name FROM " + t + " ORDER BY id");
        assertEquals(0, text.exitCode(), text.stderr());
        List<String> lines = text.stdout().lines().toList();
        assertEquals(List.of("id | name", "---+-----", "1  | one ", "2  | NULL", "(2 rows)"), lines, text.stdout());

        CliRun json = CliRun.of("sql", "--connection", "clickhouse_test", "--format", "json",
            "/* a comment */\nSELECT id, name FROM " + t + " ORDER BY id;");
        assertEquals(0, json.exitCode(), json.stderr());
        JsonNode doc = JSON.readTree(json.stdout());
        assertEquals(SqlCommand.SCHEMA, doc.path("schema").asText());
        assertEquals("[\"id\",\"name\"]", doc.path("columns").toString());
        assertEquals("[{\"id\":\"1\",\"name\":\"one\"},{\"id\":\"2\",\"name\":null}]", doc.path("rows").toString());
        assertEquals(2, doc.path("row_count").asInt());
        assertTrue(json.stderr().isEmpty(), json.stderr());
    }

    @Test
    void anythingButOneReadIsRefusedTypedAndChangesNothing() throws Exception {
        String t = table();
        embeddedContext();
        for (String q : List.of("INSERT INTO " + t + " VALUES (3, 'x')", "DROP TABLE " + t,
                "SELECT 1; DROP TABLE " + t, "  /* sneaky */ ALTER TABLE " + t + " DELETE WHERE 1",
                "SELECT * FROM " + t + " INTO OUTFILE 'leak.tsv'", "TRUNCATE TABLE " + t, "", "SYSTEM DROP DNS CACHE")) {
            CliRun r = CliRun.of("sql", "--connection", "clickhouse_test", "--format", "json", q);
            assertEquals(1, r.exitCode(), q + ": " + r.stdout() + r.stderr());
            assertEquals("", r.stdout(), q);
            JsonNode doc = JSON.readTree(r.stderr());
            assertEquals("sql.not_read_only", doc.path("blockers").get(0).path("code").asText(), r.stderr());
        }
        assertEquals(2, count(t), "nothing was written or dropped");
        CliRun text = CliRun.of("sql", "--connection", "clickhouse_test", "DELETE FROM " + t + " WHERE 1");
        assertEquals(1, text.exitCode());
        assertTrue(text.stderr().contains("sql.not_read_only") && text.stderr().contains("starts with DELETE"),
            text.stderr());
        assertFalse(Files.exists(Path.of("leak.tsv")));
    }

    @Test
    void anUnknownAliasAndAFailingQueryAreTyped() throws Exception {
        embeddedContext();
        CliRun unknown = CliRun.of("sql", "--connection", "clickhouse_nope", "SELECT 1");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.stderr().contains("connection.ref_unknown") && unknown.stderr().contains("clickhouse_test"),
            unknown.stderr());
        CliRun failed = CliRun.of("sql", "--connection", "clickhouse_test", "SELECT * FROM no_such_db.no_such_table");
        assertEquals(1, failed.exitCode());
        assertTrue(failed.stderr().contains("sql.query_failed") && failed.stderr().contains("clickhouse_test"),
            failed.stderr());
        assertFalse(failed.stderr().contains(TestEngines.clickHousePath().toString()), failed.stderr());
    }

    @Test
    void throughTheHttpTwinWithReadonly() throws Exception {
        TwinProcess twin = TwinProcess.shared();
        var alias = twin.alias("clickhouse_twin");
        Path context = Files.writeString(dir.resolve("twin.yaml"), """
            connections:
              clickhouse_twin: {type: clickhouse, url: "%s", user: %s, password_file: "%s"}
            """.formatted(alias.url(), alias.user(), alias.passwordFile()));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
        CliRun r = CliRun.of("sql", "--connection", "clickhouse_twin", "--format", "json",
            "SELECT number AS n, toString(number * 2) AS twice FROM numbers(3) ORDER BY n");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode doc = JSON.readTree(r.stdout());
        assertEquals("[\"n\",\"twice\"]", doc.path("columns").toString());
        assertEquals(3, doc.path("row_count").asInt());
        assertEquals("4", doc.path("rows").get(2).path("twice").asText());

        CliRun text = CliRun.of("sql", "--connection", "clickhouse_twin", "SHOW DATABASES");
        assertEquals(0, text.exitCode(), text.stderr());
        assertTrue(text.stdout().lines().anyMatch(l -> l.strip().equals("system")), text.stdout());

        CliRun failed = CliRun.of("sql", "--connection", "clickhouse_twin", "SELECT * FROM no_such_db.t");
        assertEquals(1, failed.exitCode());
        assertTrue(failed.stderr().contains("sql.query_failed"), failed.stderr());
        assertFalse(failed.stderr().contains(twin.url()), failed.stderr());
        assertFalse(failed.stderr().contains(twin.url().replace("http://", "")), failed.stderr());

        // past dpone's own guard, the server's readonly=1 refuses the write (the endpoint sends it on every user query)
        String name = "sqlcmd_ro_" + System.nanoTime();
        try (ClickHouseEndpoint ch = twin.endpoint()) {
            ClickHouseQueryException e = assertThrows(ClickHouseQueryException.class,
                () -> ch.queryReadOnly("CREATE TABLE default." + name + " (x Int8) ENGINE = Memory"));
            assertTrue(e.getMessage().contains("READONLY"), e.getMessage());
            assertEquals("0", ch.query("SELECT count() FROM system.tables WHERE name = '" + name + "'").get(0).get(0));
        }
    }
}
