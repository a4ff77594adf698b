package io.dpone.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.testing.Await;
import io.dpone.testing.ChildJvm;
import io.dpone.testing.CliRun;
import io.dpone.testing.ReadyLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet killed mid-way (SIGKILL, so nothing of the fleet's own runs at the end) and rerun with the same run id
 * runs again only the tables its report does not record as passed; every table ends passed with its gates green,
 * the one stopped mid-load resumed rather than loaded twice (its row_count gate compares source and target).
 */
@io.dpone.testing.ProcessTest
class FleetKillResumeProcessTest {
    static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;

    @Test
    void aKilledFleetRerunWithItsRunIdRedoesOnlyWhatHadNotPassed() throws Exception {
        String url = EmbeddedDefaults.h2Url(dir.resolve("h2").resolve("src"));
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            for (String t : new String[] {"a1", "a2", "a3", "a4"}) {
                st.execute("CREATE TABLE dbo." + t + " (id INT NOT NULL PRIMARY KEY, v NVARCHAR(20))");
                st.execute("INSERT INTO dbo." + t + " SELECT X, 'v' || X FROM SYSTEM_RANGE(1, 1000)");
            }
            st.execute("CREATE TABLE dbo.zz_big (id INT NOT NULL PRIMARY KEY, v NVARCHAR(40), n BIGINT)");
            st.execute("INSERT INTO dbo.zz_big SELECT X, 'row ' || X, X * 31 FROM SYSTEM_RANGE(1, 400000)");
        }
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              src: {type: mssql, url: "%s", user: sa}
              dst: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(url, dir.resolve("ch")));
        Path out = dir.resolve("discovered");
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
        try {
            CliRun discover = CliRun.of("discover", "--connection", "src", "--sink", "dst", "--target-database",
                "fleet_kill", "--output", out.toString());
            assertEquals(0, discover.exitCode(), discover.stderr());
        } finally {
            System.clearProperty(ConnectionContext.PROPERTY);
        }
        Path home = dir.resolve("home");
        String runId = "fleet-kill-1";
        Process first = ChildJvm.cli().jvm(ChildJvm.tmpdir()).args("run", out.toString(), "--run-id", runId,
                "--parallel", "1").env(ConnectionContext.ENV, context.toString()).env("DPONE_HOME", home.toString())
            .mergeStderr().start();
        try {
            ReadyLine.await(first, "fleet " + runId + ": [2/5]", "two tables of the fleet passed");
        } finally {
            Await.kill(first);
        }
        Path report = FleetRunner.directory(home, runId).resolve(FleetRunner.REPORT_FILE);
        Set<String> passedBefore = new HashSet<>();
        JSON.readTree(report.toFile()).path("tables").forEach(t -> {
            if (t.path("status").asText().equals("passed")) {
                passedBefore.add(t.path("manifest").asText());
            }
        });
        assertTrue(passedBefore.size() >= 2 && passedBefore.size() < 5, passedBefore::toString);

        Path stdout = dir.resolve("second.json");
        Process second = ChildJvm.cli().jvm(ChildJvm.tmpdir()).args("run", out.toString(), "--run-id", runId,
                "--format", "json").env(ConnectionContext.ENV, context.toString()).env("DPONE_HOME", home.toString())
            .stdout(stdout).stderr(dir.resolve("second.err")).start();
        assertEquals(0, Await.exit(second, Duration.ofMinutes(3), "the rerun"), () -> read(dir.resolve("second.err")));
        JsonNode doc = JSON.readTree(stdout.toFile());
        assertEquals(passedBefore.size(), doc.path("totals").path("carried_over").asInt());
        assertEquals(5, doc.path("totals").path("passed").asInt());
        Map<String, JsonNode> tables = new HashMap<>();
        doc.path("tables").forEach(t -> tables.put(t.path("manifest").asText(), t));
        for (var e : tables.entrySet()) {
            assertEquals(passedBefore.contains(e.getKey()) ? "earlier" : "this", e.getValue().path("attempt").asText(),
                e::toString);
            Map<String, String> gates = new HashMap<>();
            e.getValue().path("gates").forEach(g -> gates.put(g.path("gate").asText(), g.path("status").asText()));
            assertEquals("passed", gates.get("row_count"), e::toString);
            assertEquals("passed", gates.get("typed_hash"), e::toString);
        }
        assertEquals("this", tables.get("dbo.zz_big.batch.yaml").path("attempt").asText());
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
