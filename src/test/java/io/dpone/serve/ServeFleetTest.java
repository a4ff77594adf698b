package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.invoke;
import static io.dpone.serve.ServeFixture.jmx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.fleet.FleetRunner;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} runs a fleet directory on a schedule (issue 32 item 2, {@code fleets:}): one run loads every table of
 * the directory through serve's own context with every gate, shows in JMX and Prometheus, and writes the fleet
 * report; a table that fails makes the run fail, and a run stopped with its id still in flight resumes at the next
 * start with the same id, carrying over the tables that had passed and running only the one that had not.
 */
@io.dpone.testing.EngineTest
class ServeFleetTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FLEET = "io.dpone:type=fleets,name=nightly";
    @TempDir
    Path dir;

    @Test
    void aScheduledFleetLoadsEveryTableAndAStoppedRunResumesOnlyWhatDidNotPass() throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("servefleet");
        try (Connection source = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            try (Statement st = source.createStatement()) {
                st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
                st.execute("CREATE TABLE dbo.customers (customer_id INT NOT NULL PRIMARY KEY, name NVARCHAR(40))");
                st.execute("INSERT INTO dbo.customers SELECT X, 'c' || X FROM SYSTEM_RANGE(1, 1500)");
                st.execute("CREATE TABLE dbo.order_lines (order_id BIGINT NOT NULL, line_no SMALLINT NOT NULL, "
                    + "qty INT, PRIMARY KEY (order_id, line_no))");
                st.execute("INSERT INTO dbo.order_lines SELECT X / 3, MOD(X, 3), X FROM SYSTEM_RANGE(1, 900)");
                st.execute("CREATE TABLE dbo.validity (id INT NOT NULL PRIMARY KEY, valid_to DATE NOT NULL)");
                st.execute("INSERT INTO dbo.validity VALUES (1, DATE '2024-05-01'), (2, DATE '9999-12-31')");
            }
            Path fleetDir = dir.resolve("fleet");
            for (String table : new String[] {"customers", "order_lines", "validity"}) {
                Manifests.fullRefresh(fleetDir, table, db, null);
            }
            ServeConfig config = ServeConfigLoader.load(Manifests.write(dir.resolve("serve.yaml"), """
                http:
                  port: %d
                state_dir: state
                fleets:
                  - name: nightly
                    directory: %s
                    parallel: 2
                    schedule: {every: 1h, start_after: 200ms}
                """.formatted(ServeFixture.freePort(), fleetDir)));
            assertEquals(3, config.fleets().get(0).manifests().size());
            Path state = dir.resolve("state");
            String firstId;
            try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(h2), Map.of())) {
                await(Duration.ofSeconds(120), "the scheduled fleet run", () -> ((Long) jmx(FLEET, "Runs")) == 1L);
                assertEquals("failed", jmx(FLEET, "LastStatus"));
                assertEquals(3, jmx(FLEET, "LastTables"));
                assertEquals(2, jmx(FLEET, "LastPassedTables"));
                assertEquals(1, jmx(FLEET, "LastFailedTables"));
                firstId = (String) jmx(FLEET, "LastRunId");
                assertTrue(firstId.startsWith("nightly-"), firstId);
                String metrics = ServeFixture.get(config.httpPort(), ServeRuntime.METRICS).body();
                assertEquals(1.0, ServeFixture.sample(metrics, "dpone_fleet_runs_total", "fleet=\"nightly\""), metrics);
                assertEquals(1.0, ServeFixture.sample(metrics, "dpone_fleet_last_failed_tables",
                    "fleet=\"nightly\""), metrics);
                assertFalse(new JobState(state).inFlight("nightly").isPresent(),
                    "a run that ended on its own is not resumed");
                JsonNode report = JSON.readTree(FleetRunner.directory(state, firstId)
                    .resolve(FleetRunner.REPORT_FILE).toFile());
                Map<String, JsonNode> t = byManifest(report);
                assertEquals("passed", t.get("customers.batch.yaml").path("status").asText());
                assertEquals("passed", t.get("order_lines.batch.yaml").path("status").asText());
                JsonNode validity = t.get("validity.batch.yaml");
                assertEquals("failed", validity.path("status").asText());
                assertEquals("source.value_out_of_range", validity.path("blockers").get(0).path("code").asText());
                assertEquals(1500L, count(ch, db, "customers"));
                assertEquals(900L, count(ch, db, "order_lines"));
            }

            // as if the pod had been stopped in the middle of that run: its id is still in flight
            new JobState(state).begin("nightly", firstId);
            try (Statement st = source.createStatement()) {
                st.execute("UPDATE dbo.validity SET valid_to = DATE '2099-12-31' WHERE id = 2");
            }
            try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(h2), Map.of())) {
                await(Duration.ofSeconds(120), "the resumed fleet run", () -> ((Long) jmx(FLEET, "Runs")) == 1L);
                assertEquals("passed", jmx(FLEET, "LastStatus"));
                assertEquals(firstId, jmx(FLEET, "LastRunId"), "the stopped run's id is resumed");
                JsonNode report = JSON.readTree(FleetRunner.directory(state, firstId)
                    .resolve(FleetRunner.REPORT_FILE).toFile());
                assertTrue(report.path("passed").asBoolean(), report::toString);
                assertEquals(2, report.path("totals").path("carried_over").asInt(), report::toString);
                Map<String, JsonNode> t = byManifest(report);
                assertEquals("earlier", t.get("customers.batch.yaml").path("attempt").asText());
                assertEquals("this", t.get("validity.batch.yaml").path("attempt").asText());
                assertEquals(2L, count(ch, db, "validity"));
                assertFalse(new JobState(state).inFlight("nightly").isPresent());
                // a second run now is a new run id, which runs every table again
                assertEquals("passed", invoke(FLEET, "runNow"));
                String second = (String) jmx(FLEET, "LastRunId");
                assertFalse(second.equals(firstId), second);
                JsonNode again = JSON.readTree(FleetRunner.directory(state, second)
                    .resolve(FleetRunner.REPORT_FILE).toFile());
                assertEquals(0, again.path("totals").path("carried_over").asInt(), again::toString);
                assertEquals(3, again.path("totals").path("passed").asInt(), again::toString);
            }
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @Test
    void aFleetWithoutManifestsOrWithABadOneIsRefusedAtStartUpWithItsPath() throws Exception {
        Path empty = java.nio.file.Files.createDirectories(dir.resolve("empty"));
        Path bad = dir.resolve("bad");
        Manifests.write(bad.resolve("broken.batch.yaml"), "name: x\nsource: {}\n");
        io.dpone.error.DponeException e = org.junit.jupiter.api.Assertions.assertThrows(
            io.dpone.error.DponeException.class, () -> ServeConfigLoader.load(Manifests.write(
                dir.resolve("serve.yaml"), """
                    fleets:
                      - name: a
                        directory: %s
                        schedule: {every: 1h}
                      - name: b
                        directory: %s
                        schedule: {every: 1h}
                      - name: c
                        directory: missing
                        schedule: {every: 1h}
                      - name: a
                        directory: %s
                        parallel: 0
                        schedule: {every: 1h}
                    """.formatted(empty, bad, empty))));
        java.util.Set<String> at = new java.util.HashSet<>();
        e.blockers().forEach(b -> at.add(b.code() + "@" + b.subject()));
        for (String expected : java.util.List.of("serve.config_invalid@fleets[0].directory",
            "serve.config_invalid@fleets[2].directory", "serve.config_invalid@fleets[3].name",
            "serve.config_invalid@fleets[3].parallel")) {
            assertTrue(at.contains(expected), () -> expected + " not in " + at);
        }
        assertTrue(at.stream().anyMatch(s -> s.contains("@fleets[1].directory[broken.batch.yaml]:")), at::toString);
    }

    @Test
    void aFleetTableWaitsForItsTargetAndGivesUpWhenStopping() throws Exception {
        TargetLocks locks = new TargetLocks();
        assertTrue(locks.tryAcquire("dst:db.t"), "a job holds the target");
        java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.CompletableFuture<Boolean> waiter = java.util.concurrent.CompletableFuture.supplyAsync(
            () -> locks.acquireUnlessStopping("dst:db.t", stopping::get));
        assertFalse(waiter.isDone(), "the fleet's table waits while the job holds its target");
        locks.release("dst:db.t");
        assertTrue(waiter.get(10, java.util.concurrent.TimeUnit.SECONDS), "and takes it when the job ends");
        java.util.concurrent.CompletableFuture<Boolean> stopped = java.util.concurrent.CompletableFuture.supplyAsync(
            () -> locks.acquireUnlessStopping("dst:db.t", stopping::get));
        stopping.set(true);
        assertFalse(stopped.get(10, java.util.concurrent.TimeUnit.SECONDS), "a stop ends the wait without the lock");
        locks.release("dst:db.t");
        assertTrue(locks.tryAcquire("dst:db.t"), "the lock is free again");
    }

    private static long count(ClickHouseEndpoint ch, String db, String table) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, table)).get(0).get(0));
    }

    private static Map<String, JsonNode> byManifest(JsonNode report) {
        Map<String, JsonNode> out = new HashMap<>();
        report.path("tables").forEach(t -> out.put(t.path("manifest").asText(), t));
        return out;
    }
}
