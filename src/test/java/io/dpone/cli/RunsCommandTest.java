package io.dpone.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.testing.CliRun;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpone runs list|show}: the runs {@code dpone run} recorded, read back (issue 36 item 3). */
@io.dpone.testing.EngineTest
class RunsCommandTest {
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

    private static JsonNode run(JsonNode list, String runId) {
        for (JsonNode r : list.path("runs")) {
            if (r.path("run_id").asText().equals(runId)) {
                return r;
            }
        }
        return null;
    }

    @Test
    void aPassedAndAFailedRunAreListedAndShownWithWhatToDoNext() throws Exception {
        db = TestEngines.newDatabase("runs");
        String h2 = TestEngines.newH2Url();
        try (Connection c = DriverManager.getConnection(h2, "sa", "")) {
            DemoSalesGenerator.seed(c, 300, 5);
        }
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              mssql_test: {type: mssql, url: "%s", user: sa}
              clickhouse_test: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(h2, TestEngines.clickHousePath()));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
        String passedId = "runs-ok-" + System.nanoTime();
        String failedId = "runs-red-" + System.nanoTime();
        assertEquals(0, CliRun.of("run", Manifests.fullRefresh(dir, "sales", db, null).toString(), "--run-id",
            passedId, "-q").exitCode());
        assertEquals(1, CliRun.of("run", Manifests.fullRefresh(dir, "missing", db, null).toString(), "--run-id",
            failedId, "-q").exitCode());

        CliRun list = CliRun.of("runs", "list", "--format", "json");
        assertEquals(0, list.exitCode(), list.stderr());
        JsonNode doc = new ObjectMapper().readTree(list.stdout());
        assertEquals(RunsCommand.LIST_SCHEMA, doc.path("schema").asText());
        JsonNode ok = run(doc, passedId);
        assertEquals("passed", ok.path("status").asText(), ok.toString());
        assertEquals("dbo.sales", ok.path("source_table").asText());
        assertEquals(db + ".sales", ok.path("target_table").asText());
        assertEquals(300, ok.path("loaded_rows").asLong());
        assertEquals("passed", ok.path("gates").path("typed_hash").asText(), ok.toString());
        assertFalse(ok.path("resumable").asBoolean());
        assertTrue(ok.path("evidence").asText().startsWith("$DPONE_HOME/runs/"), ok.toString());
        JsonNode red = run(doc, failedId);
        assertEquals("failed", red.path("status").asText(), red.toString());
        assertEquals("source.table_missing", red.path("blockers").get(0).asText());
        assertTrue(red.path("next").asText().contains("--run-id " + failedId), red.toString());
        assertFalse(list.stdout().contains(dir.toString()), "no local path");

        CliRun text = CliRun.of("runs", "list");
        assertTrue(text.stdout().lines().anyMatch(l -> l.startsWith(passedId) && l.contains("passed")
            && l.contains("dbo.sales -> " + db + ".sales") && l.contains("passed ")), text.stdout());
        CliRun show = CliRun.of("runs", "show", failedId);
        assertEquals(0, show.exitCode(), show.stderr());
        assertTrue(show.stdout().contains("status:") && show.stdout().contains("failed"), show.stdout());
        assertTrue(show.stdout().contains("first_blocker:"), show.stdout());

        CliRun unknown = CliRun.of("runs", "show", "no-such-run-" + System.nanoTime(), "--format", "json");
        assertEquals(1, unknown.exitCode());
        assertEquals("", unknown.stdout());
        assertEquals("run.run_unknown", new ObjectMapper().readTree(unknown.stderr()).path("blockers").get(0)
            .path("code").asText());
        assertEquals(2, CliRun.of("runs").exitCode(), "a subcommand is required");
    }
}
