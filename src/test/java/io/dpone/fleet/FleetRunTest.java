package io.dpone.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet in one process (issue 32 item 2): {@code dpone run DIR --run-id ID} over the directory {@code dpone
 * discover} wrote moves every movable table with every gate green, one report per table and one
 * {@code dpone.fleet_run.v1}; a table that fails makes the fleet exit 1, and the same run id after the cause is fixed
 * runs that table again and only that one.
 */
@io.dpone.testing.EngineTest
class FleetRunTest {
    static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;
    String h2;
    String db;
    Connection source;
    ClickHouseEndpoint ch;

    @BeforeEach
    void setUp() throws Exception {
        h2 = TestEngines.newH2Url();
        db = TestEngines.newDatabase("fleet");
        source = DriverManager.getConnection(h2, "sa", "");
        try (Statement st = source.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE TABLE dbo.customers (customer_id INT NOT NULL PRIMARY KEY, name NVARCHAR(40), "
                + "created_at DATETIME2(7) NOT NULL)");
            st.execute("INSERT INTO dbo.customers SELECT X, 'c' || X, TIMESTAMP '2024-01-01 00:00:00' + X * "
                + "INTERVAL '1' MINUTE FROM SYSTEM_RANGE(1, 500)");
            st.execute("CREATE TABLE dbo.order_lines (order_id BIGINT NOT NULL, line_no SMALLINT NOT NULL, qty INT, "
                + "PRIMARY KEY (order_id, line_no))");
            st.execute("INSERT INTO dbo.order_lines SELECT X / 3, MOD(X, 3), X FROM SYSTEM_RANGE(1, 300)");
            st.execute("CREATE TABLE dbo.sessions (session_id UUID NOT NULL PRIMARY KEY, score REAL)");
            st.execute("INSERT INTO dbo.sessions SELECT RANDOM_UUID(), X / 7.0 FROM SYSTEM_RANGE(1, 100)");
            st.execute("CREATE TABLE dbo.countries (code VARCHAR(3) NOT NULL PRIMARY KEY, name NVARCHAR(60))");
            st.execute("INSERT INTO dbo.countries SELECT 'C' || X, 'country ' || X FROM SYSTEM_RANGE(10, 59)");
            st.execute("CREATE TABLE dbo.events_log (message NVARCHAR(200), n INT)");
            st.execute("INSERT INTO dbo.events_log SELECT 'event ' || MOD(X, 17), X FROM SYSTEM_RANGE(1, 200)");
            st.execute("CREATE TABLE dbo.validity (id INT NOT NULL PRIMARY KEY, valid_to DATE NOT NULL)");
            st.execute("INSERT INTO dbo.validity VALUES (1, DATE '2024-05-01'), (2, DATE '9999-12-31')");
            st.execute("CREATE TABLE dbo.empty_one (id INT NOT NULL PRIMARY KEY, v INT)");
            st.execute("CREATE TABLE dbo.refused (id INT NOT NULL PRIMARY KEY, tags INT ARRAY)");
        }
        System.setProperty(ConnectionContext.PROPERTY, Files.writeString(dir.resolve("context.yaml"), """
            connections:
              src: {type: mssql, url: "%s", user: sa}
              dst: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(h2, TestEngines.clickHousePath())).toString());
        ch = TestEngines.clickhouse();
    }

    @AfterEach
    void tearDown() throws Exception {
        System.clearProperty(ConnectionContext.PROPERTY);
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
        source.close();
    }

    private long count(String table) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, table)).get(0).get(0));
    }

    private static Map<String, JsonNode> byManifest(JsonNode report) {
        Map<String, JsonNode> out = new HashMap<>();
        report.path("tables").forEach(t -> out.put(t.path("manifest").asText(), t));
        return out;
    }

    @Test
    void theFleetMovesEveryMovableTableAndItsRerunRedoesOnlyWhatDidNotPass() throws Exception {
        Path out = dir.resolve("discovered");
        CliRun discover = CliRun.of("discover", "--connection", "src", "--sink", "dst", "--target-database", db,
            "--output", out.toString());
        assertEquals(0, discover.exitCode(), discover.stderr());
        String runId = "fleet-" + db;

        CliRun first = CliRun.of("run", out.toString(), "--run-id", runId, "--parallel", "3", "--format", "json");
        assertEquals(1, first.exitCode(), "one table refuses its 9999-12-31: " + first.stdout());
        JsonNode report = JSON.readTree(first.stderr());
        assertEquals("dpone.fleet_run.v1", report.path("schema").asText());
        assertEquals(3, report.path("parallel").asInt());
        Map<String, JsonNode> t = byManifest(report);
        assertEquals(7, t.size(), t.keySet()::toString); // the refused table has no manifest
        JsonNode validity = t.get("dbo.validity.batch.yaml");
        assertEquals("failed", validity.path("status").asText());
        assertEquals("source.value_out_of_range", validity.path("blockers").get(0).path("code").asText());
        for (JsonNode table : t.values()) {
            if (table != validity) {
                assertEquals("passed", table.path("status").asText(), table::toString);
                assertFalse(table.path("gates").isEmpty(), table::toString);
                Map<String, String> gates = new HashMap<>();
                table.path("gates").forEach(g -> gates.put(g.path("gate").asText(), g.path("status").asText()));
                assertEquals("passed", gates.get("row_count"), table::toString);
                assertEquals("passed", gates.get("typed_hash"), table::toString);
                assertEquals("passed", gates.get("metadata_columns"), table::toString);
                // the others passed, or do not apply to the table's columns (no decimal, no float): never failed
                gates.values().forEach(s -> assertTrue(s.equals("passed") || s.equals("skipped"), table::toString));
                assertTrue(Files.isRegularFile(FleetRunner.directory(EmbeddedDefaults.home(), runId)
                    .resolve(table.path("report").asText())), "one report per table");
            }
        }
        JsonNode totals = report.path("totals");
        assertEquals(6, totals.path("passed").asInt());
        assertEquals(1, totals.path("failed").asInt());
        assertEquals(500 + 300 + 100 + 50 + 200, totals.path("loaded_rows").asLong());
        assertEquals(500, count("customers"));
        assertEquals(300, count("order_lines"));
        assertEquals(100, count("sessions"));
        assertEquals(50, count("countries"));
        assertEquals(200, count("events_log"));
        assertEquals(0, count("empty_one"));
        String customersRunBefore = t.get("dbo.customers.batch.yaml").path("run_id").asText();

        // the cause fixed, the same run id runs the failed table again, and only it
        try (Statement st = source.createStatement()) {
            st.execute("UPDATE dbo.validity SET valid_to = DATE '2299-12-31' WHERE id = 2");
            st.execute("INSERT INTO dbo.customers VALUES (501, 'late', TIMESTAMP '2024-06-01 00:00:00')");
        }
        CliRun again = CliRun.of("run", out.toString(), "--run-id", runId, "--format", "json");
        assertEquals(0, again.exitCode(), again.stderr());
        JsonNode second = JSON.readTree(again.stdout());
        Map<String, JsonNode> t2 = byManifest(second);
        assertEquals("this", t2.get("dbo.validity.batch.yaml").path("attempt").asText());
        assertEquals("passed", t2.get("dbo.validity.batch.yaml").path("status").asText());
        assertEquals(6, second.path("totals").path("carried_over").asInt());
        assertEquals(2, second.path("totals").path("loaded_rows").asLong(), "only the failed table's rows moved");
        assertEquals("earlier", t2.get("dbo.customers.batch.yaml").path("attempt").asText());
        assertEquals(customersRunBefore, t2.get("dbo.customers.batch.yaml").path("run_id").asText());
        assertEquals(500, count("customers"), "a passed table is not loaded again");
        assertEquals(List.of(List.of("2")), ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "validity")));
    }

    @Test
    void parallelOnASingleManifestIsAUsageError() throws Exception {
        Path m = Files.writeString(dir.resolve("one.batch.yaml"), "name: x\n");
        CliRun run = CliRun.of("run", m.toString(), "--run-id", "r1", "--parallel", "2");
        assertEquals(2, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("--parallel applies to a fleet"), run.stderr());
    }
}
