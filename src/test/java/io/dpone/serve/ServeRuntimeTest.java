package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.jmx;
import static io.dpone.serve.ServeFixture.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Boots dpone serve in-process on the embedded engines: a scheduled run, health, JMX and Prometheus agree. */
@io.dpone.testing.EngineTest
class ServeRuntimeTest {
    static final int ROWS = 10_000;
    static final String JOB = "io.dpone:type=jobs,name=sales";

    @TempDir
    Path dir;

    @Test
    void theEmbeddedEngineIsHeldFromStartToStop() throws Exception {
        // without the hold every job and readiness probe of an idle pod would reconnect the engine while other
        // threads run (chDB's connect replaces the JVM's crash-signal handlers until they are restored)
        String h2 = TestEngines.newH2Url();
        Path engine = TestEngines.clickHousePath();
        Path manifest = Manifests.fullRefresh(dir, "sales", TestEngines.newDatabase("serve_hold"),
            "order_by: [sale_id]");
        ServeConfig config = ServeConfigLoader.load(
            ServeFixture.config(dir, manifest, "{every: 1h, start_after: 1h}", null));
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            int before = EmbeddedClickHouseEndpoint.users(engine);
            assertTrue(before >= 1, "this test's own endpoint is a user");
            try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(h2), Map.of())) {
                // the background connection probe joins the held engine for a moment every few seconds
                ServeFixture.await(java.time.Duration.ofSeconds(20), "the serve's hold as the only extra user",
                    () -> EmbeddedClickHouseEndpoint.users(engine) == before + 1);
            }
            assertEquals(before, EmbeddedClickHouseEndpoint.users(engine), "released when serve stops");
        }
    }

    @Test
    void scheduledRunIsVisibleInHealthJmxAndPrometheus() throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("serve");
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            DemoSalesGenerator.seed(src, ROWS, 5);
            Path manifest = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]");
            ServeConfig config = ServeConfigLoader.load(
                ServeFixture.config(dir, manifest, "{every: 1h, start_after: 200ms}", null));
            int port = config.httpPort();
            try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(h2), Map.of())) {
                await(Duration.ofSeconds(60), "the scheduled run", () -> ((Long) jmx(JOB, "Runs")) == 1L);
                assertEquals("passed", jmx(JOB, "LastStatus"), () -> String.valueOf(jmx(JOB, "LastBlockerCodes")));
                assertEquals((long) ROWS, jmx(JOB, "RowsMoved"));
                assertTrue((Long) jmx(JOB, "ChunksMoved") > 1);
                assertTrue((Long) jmx(JOB, "BytesMoved") > 0);
                String runId = (String) jmx(JOB, "LastRunId");
                assertTrue(runId.startsWith("sales-"), runId);
                assertEquals(List.of(List.of(String.valueOf(ROWS), runId)), ch.query("SELECT count(), any(__dpone__run_id) FROM "
                    + ClickHouseSql.table(db, "sales")));
                assertEquals((long) ROWS, jmx("io.dpone:type=routes,name=typed_binary_streaming", "RowsMoved"));

                await(Duration.ofSeconds(30), "readiness UP", () -> get(port, "/observe/health/ready").status() == 200);
                String health = get(port, "/observe/health?data=true").body();
                assertTrue(health.contains("connection:mssql_test") && health.contains("connection:clickhouse_test"),
                    health);
                assertEquals(200, get(port, "/observe/health/live").status());
                assertTrue(get(port, "/observe/health").body().contains("\"status\":\"UP\""));

                String metrics = get(port, "/observe/metrics").body();
                assertEquals(ROWS, sample(metrics, "dpone_job_rows_moved_total", "job=\"sales\""), 0.0);
                assertEquals(1, sample(metrics, "dpone_job_runs_total", "job=\"sales\""), 0.0);
                assertTrue(metrics.contains("camel_exchanges_total"), "Camel's own route metrics are served too");
                assertTrue(metrics.contains("jvm_gc_pause_seconds") || metrics.contains("jvm_gc_memory_allocated"),
                    "the JVM's GC meters are served");
                assertTrue(sample(metrics, "dpone_job_last_success_timestamp_seconds", "job=\"sales\"")
                    > System.currentTimeMillis() / 1000.0 - 600);
                assertEquals(1.0, sample(metrics, "dpone_gate_status", "gate=\"typed_hash\",job=\"sales\""), 0.0);
                assertEquals(1.0, sample(metrics, "dpone_gate_status", "gate=\"cleanup_audit\",job=\"sales\""), 0.0);
                assertTrue(sample(metrics, "dpone_job_last_duration_seconds", "job=\"sales\"") > 0);
                assertTrue(sample(metrics, "dpone_job_moved_bytes_total", "job=\"sales\"") > 0);
                // issue 35: retries per operation kind, registered at zero (a clean run retried nothing)
                for (String kind : List.of("chunk_insert", "metadata_query", "source_read", "object_put",
                        "object_get")) {
                    assertEquals(0.0, sample(metrics, "dpone_job_retries_total", "job=\"sales\",operation=\""
                        + kind + "\""), 0.0, kind);
                }
                assertEquals(0L, jmx(JOB, "ChunkInsertRetries"));
                assertEveryDponeSeriesHasHelp(metrics);

                // a manual run through JMX moves the table again: both views grow by exactly the rows moved
                assertEquals("passed", ServeFixture.invoke(JOB, "runNow"));
                assertEquals(2L * ROWS, jmx(JOB, "RowsMoved"));
                assertEquals(2.0 * ROWS, sample(get(port, "/observe/metrics").body(), "dpone_job_rows_moved_total",
                    "job=\"sales\""), 0.0);
                assertEquals((long) ROWS, ((Number) ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "sales"))
                    .get(0).stream().map(Long::parseLong).findFirst().orElseThrow()).longValue());
                // the standard Camel route MBean of the job route is there as well
                assertTrue((Long) jmx("org.apache.camel:context=dpone,type=routes,name=\"dpone_job_sales\"",
                    "ExchangesCompleted") >= 1);
                assertTrue(serve.job("sales").stats().getSkippedOverlaps() == 0);
            }
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    /** Prometheus conventions: every dpone series carries a HELP text. */
    static void assertEveryDponeSeriesHasHelp(String metrics) {
        java.util.Set<String> help = new java.util.HashSet<>();
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("# HELP dpone_")) {
                String[] parts = line.split(" ", 4);
                if (parts.length == 4 && !parts[3].isBlank()) {
                    help.add(parts[2]);
                }
            } else if (line.startsWith("dpone_")) {
                names.add(line.replaceFirst("[{ ].*", ""));
            }
        }
        assertTrue(names.size() > 20, names.toString());
        names.removeAll(help);
        assertEquals(java.util.Set.of(), names, "series without a HELP text");
    }
}
