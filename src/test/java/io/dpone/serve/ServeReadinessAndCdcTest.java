package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.jmx;
import static io.dpone.serve.ServeFixture.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readiness stays up while configured connections are down (they show in the health details and as
 * {@code dpone_connection_up}) and while an operator stops a route; a CDC stream ticks through the shipped tick route (applied once, replayed after, committed position
 * and counters in JMX and Prometheus), a cron (quartz) schedule fires, and a certification runs on demand over JMX.
 */
@io.dpone.testing.EngineTest
class ServeReadinessAndCdcTest {
    static final String STREAM = "io.dpone:type=cdc,name=orders";
    static final String SECRET = "planted-S3cret-4711";

    @TempDir
    Path dir;

    @Test
    void connectionsAreHealthDetailsAndMetricsNotReadinessAndCdcTicksAreCounted() throws Exception {
        Path cdc = Files.createDirectories(dir.resolve("cdc"));
        Files.copy(Path.of("examples/cdc/orders/events.json"), cdc.resolve("events.json"));
        Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h, start_after: 1h}", """
            readiness: {connections: [s3_missing, clickhouse_unreachable]}
            cdc_streams:
              - name: orders
                schedule: {every: 200ms, start_after: 100ms}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: orders-cdc
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders
                unique_keys: [order_id]
                events_json: cdc/events.json
                checkpoint_json: cdc/checkpoint.json
                output_dir: cdc/out
              - name: orders_cron
                schedule: {cron: "* * * * * ?"}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: orders-cron
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders_cron
                unique_keys: [order_id]
                events_json: cdc/events.json
                checkpoint_json: cdc/checkpoint_cron.json
                output_dir: cdc/out_cron
            certifications:
              - name: nightly
                manifest: %s
                scenario: preflight_only
                output: evidence
            """.formatted(manifest.toAbsolutePath())));
        int port = config.httpPort();
        Path passwordFile = Files.writeString(dir.resolve("ch.password"), SECRET);
        Map<String, ContextEntry> entries = new HashMap<>();
        entries.put(TestEngines.SOURCE, TestEngines.context(TestEngines.newH2Url()).entry(TestEngines.SOURCE).orElseThrow());
        entries.put(TestEngines.CLICKHOUSE, TestEngines.context("unused").entry(TestEngines.CLICKHOUSE).orElseThrow());
        entries.put("clickhouse_unreachable", new ContextEntry("clickhouse_unreachable", ConnectionType.CLICKHOUSE,
            "http://dpone-unreachable.invalid:8123", "dpone", null, passwordFile.toString(), false, Map.of()));
        try (ServeRuntime serve = ServeRuntime.start(config, ConnectionContext.of(entries, false), Map.of())) {
            await(Duration.ofSeconds(30), "three CDC ticks", () -> (Long) jmx(STREAM, "Ticks") >= 3);
            assertEquals("passed", jmx(STREAM, "LastStatus"), () -> (String) jmx(STREAM, "LastBlockerCodes"));
            long applied = (Long) jmx(STREAM, "EventsApplied");
            assertTrue(applied > 0, "the first tick applies the batch");
            assertEquals("0x14", jmx(STREAM, "CommittedPosition"));
            await(Duration.ofSeconds(10), "more ticks", () -> (Long) jmx(STREAM, "Ticks") >= 5);
            assertEquals(applied, jmx(STREAM, "EventsApplied"), "later ticks replay, nothing is applied twice");
            double prom = sample(get(port, ServeRuntime.METRICS).body(), "dpone_cdc_events_applied_total",
                "stream=\"orders\"");
            assertEquals(applied, prom, 0.0);

            await(Duration.ofSeconds(30), "a tick of the cron stream (quartz)",
                () -> (Long) jmx("io.dpone:type=cdc,name=orders_cron", "Ticks") >= 1);

            String certified = (String) ServeFixture.invoke("io.dpone:type=certifications,name=nightly", "certify");
            assertTrue(certified.contains("run_id=nightly-"), certified);
            assertEquals(certified, jmx("io.dpone:type=certifications,name=nightly", "LastResult"));
            try (var evidence = Files.list(dir.resolve("evidence"))) {
                assertEquals(1, evidence.count(), "one evidence directory per certification run");
            }

            ServeFixture.Response ready = get(port, ServeRuntime.HEALTH_READY);
            assertEquals(200, ready.status(), "a database that is down does not make the pod unready: " + ready.body());
            ServeFixture.Response health = get(port, ServeRuntime.HEALTH + "?data=true");
            assertTrue(health.body().contains("connection:s3_missing") && health.body().contains("DOWN"),
                health.body());
            assertTrue(health.body().contains("connection:clickhouse_unreachable"), health.body());
            String metrics = get(port, ServeRuntime.METRICS).body();
            assertEquals(0.0, sample(metrics, "dpone_connection_up", "alias=\"clickhouse_unreachable\""), 0.0);
            assertEquals(1.0, sample(metrics, "dpone_connection_up", "alias=\"" + TestEngines.SOURCE + "\""), 0.0);

            ServeFixture.invoke("org.apache.camel:context=dpone,type=routes,name=\"dpone_cdc_orders\"", "stop");
            assertEquals(200, get(port, ServeRuntime.HEALTH_READY).status(),
                "an operator stopping a route keeps the pod ready");
            String all = health.body() + get(port, ServeRuntime.HEALTH_READY + "?data=true").body();
            for (String leak : List.of(dir.toString(), SECRET, "dpone-unreachable.invalid")) {
                assertFalse(all.contains(leak), "health output leaks " + leak + ": " + all);
            }
            assertEquals(200, get(port, ServeRuntime.HEALTH_LIVE).status(), "liveness does not depend on connections");
        }
    }
}
