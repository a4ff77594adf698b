package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SIGTERM to a forked {@code dpone serve} (a CDC stream only, so the child needs no embedded ClickHouse):
 * the JVM's shutdown hook stops the serve gracefully and the process exits within the bound.
 */
@io.dpone.testing.ProcessTest
class ServeSigtermTest {
    @TempDir
    Path dir;

    @Test
    void sigtermStopsTheServeGracefullyWithinTheBound() throws Exception {
        Path cdc = Files.createDirectories(dir.resolve("cdc"));
        Files.copy(Path.of("examples/cdc/orders/events.json"), cdc.resolve("events.json"));
        int port = ServeFixture.freePort();
        Path config = Manifests.write(dir.resolve("serve.yaml"), """
            shutdown: {timeout: 10s}
            cdc_streams:
              - name: orders
                schedule: {every: 300ms, start_after: 100ms}
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
            """);
        Path stderr = dir.resolve("stderr.txt");
        Process p = io.dpone.testing.ChildJvm.cli().jvm("-Xmx256m").args("serve", "--config", config.toString(),
                "--http-port", String.valueOf(port), "--state-dir", dir.resolve("state").toString(), "--log-format", "json")
            .withoutEnv("DPONE_RUNTIME_CONNECTION_CONTEXT").env("DPONE_HOME", dir.resolve("home").toString())
            .stdout(dir.resolve("stdout.txt")).stderr(stderr).start();
        try {
            await(Duration.ofSeconds(60), "a CDC tick in the forked serve", () -> sample(get(port, ServeRuntime.METRICS).body(),
                "dpone_cdc_ticks_total", "stream=\"orders\"") >= 1);
            long t0 = System.nanoTime();
            p.destroy(); // SIGTERM
            int exit = io.dpone.testing.Await.exit(p, Duration.ofSeconds(30), "the serve after SIGTERM");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(143, exit, "exit on SIGTERM");
            String log = Files.readString(stderr);
            assertTrue(log.contains("dpone serve stopping") && log.contains("dpone serve stopped"), log);
            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            for (String line : log.split("\n")) {
                if (!line.isBlank()) { // --log-format json: every stderr line is one JSON event
                    com.fasterxml.jackson.databind.JsonNode event = json.readTree(line);
                    assertTrue(event.isObject() && event.hasNonNull("level") && event.hasNonNull("message"), line);
                }
            }
            assertEquals(List.of(), log.lines().filter(l -> !l.isBlank() && !l.startsWith("{\"ts\":")).toList(),
                "JSON log lines only");
            assertTrue(ms < 30_000, "stopped in " + ms + " ms");
        } finally {
            p.destroyForcibly();
        }
    }
}
