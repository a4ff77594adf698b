package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.error.DponeException;
import io.dpone.serve.ServeConfigLoader;
import io.dpone.testing.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated {@code dpone serve} configurations through the {@code serve --config} validation path: the loader
 * ({@link ServeConfigLoader#load}, which {@code dpone serve} runs before anything starts) and, for a refusal, the
 * command itself in-process ({@code dpone serve --config FILE --log-format json}: exit 1, the typed document). An
 * accepted configuration is not served (it would start the pod). Every case keeps {@link FuzzInvariants} and
 * validation writes nothing: the case directory (config, the manifest and events it names) is left as it was.
 */
class ServeConfigFuzzTest {
    static final int CASES = FuzzInvariants.cases(160);
    static final List<String> DOMAIN = List.of("manifest.yaml", "events.json", "missing.yaml", "../manifest.yaml",
        "/etc/passwd", "local", "live", "mssql", "clickhouse", "mssql_cdc", "mssql_change_tracking", "60s", "100ms",
        "99ms", "0s", "1000000000h", "0 * * * * ?", "* * * * *", "not cron", "camel.main.name", "camel.x", "jobs",
        "sales", "sales-2", "a".repeat(64), "a".repeat(65), "8080", "0", "65536", "smoke", "preflight_only",
        "analytics.orders", "orders", "order_id", "mssql_demo", "clickhouse_default", "true");

    @TempDir
    Path dir;

    static List<JsonNode> bases() {
        return List.of(Trees.yaml("""
            http: {port: 18080}
            routes: {directory: routes, reload: true, reload_interval: 5s}
            shutdown: {timeout: 30s}
            readiness: {connections: []}
            jobs:
              - name: demo-sales
                manifest: manifest.yaml
                schedule: {every: 60s, start_after: 2s}
            """), Trees.yaml("""
            http: {port: 18081}
            state_dir: state
            readiness: {connections: [clickhouse_default]}
            jobs:
              - {name: sales, manifest: manifest.yaml, schedule: {cron: "0 * * * * ?"}}
            cdc_streams:
              - name: orders
                schedule: {every: 1s, start_after: 100ms}
                mode: local
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: orders-cdc
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders
                unique_keys: [order_id]
                events_json: events.json
                checkpoint_json: checkpoint.json
                output_dir: out
                max_events: 1000
              - name: orders-live
                schedule: {every: 10s}
                mode: live
                source: mssql
                sink: clickhouse
                backend: mssql_change_tracking
                pipeline_name: orders-live
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders_live
                unique_keys: [order_id]
                source_connection_id: mssql_demo
                sink_connection_id: clickhouse_default
            certifications:
              - {name: nightly, manifest: manifest.yaml, scenario: preflight_only, output: evidence}
            camel_properties:
              camel.main.jmxManagementStatisticsLevel: Extended
              camel.main.shutdownTimeout: 30
            """));
    }

    /** A secret in a Camel property (a credential-named one), an unknown key of a job or stream, or anywhere. */
    static boolean plant(ArrayNode holder, Mutator.Planting p) {
        JsonNode doc = holder.size() == 0 ? null : holder.get(0);
        if (doc instanceof ObjectNode o && p.random().nextBoolean()) {
            JsonNode props = o.path("camel_properties");
            ObjectNode target = props instanceof ObjectNode po ? po : o.putObject("camel_properties");
            target.put(Trees.any(p.random(), List.of("camel.component.aws2-s3.secretKey",
                "camel.component.sql.password", "camel.main.token")), p.secret());
            return true;
        }
        return Trees.plantAnywhere(holder, p);
    }

    @Test
    void mutatedServeConfigsAreTypedRefusalsThatWriteNothing() throws IOException {
        long seed = FuzzInvariants.seed();
        List<JsonNode> bases = bases();
        Random random = new Random(seed + 5);
        Mutator mutator = new Mutator(new Mutator.Kind("serve", true, DOMAIN, ServeConfigFuzzTest::plant), seed + 5);
        FuzzTally tally = new FuzzTally("serve", seed);
        Files.copy(Path.of("examples/batch/embedded-full-refresh.batch.yaml"), dir.resolve("manifest.yaml"));
        Files.copy(Path.of("examples/cdc/orders/events.json"), dir.resolve("events.json"));
        Path file = dir.resolve("serve.yaml");
        List<Path> files = List.of(dir.resolve("events.json"), dir.resolve("manifest.yaml"), file);
        long start = System.nanoTime();
        for (int i = 0; i < CASES; i++) {
            long caseStart = System.nanoTime();
            FuzzCase c = mutator.next(bases.get(random.nextInt(bases.size())), i, FuzzInvariants.secret(random));
            Trees.write(file, c.bytes());
            String what = c.describe(seed);
            try {
                boolean accepted;
                try {
                    ServeConfigLoader.load(file);
                    accepted = true;
                } catch (DponeException e) {
                    accepted = false;
                }
                List<String> codes = List.of();
                if (accepted) {
                    // served, it would start the pod: validation itself is what is fuzzed
                    tally.add(c, 0, codes, caseStart);
                } else {
                    CliRun run = CliRun.of("serve", "--config", file.toString(), "--log-format", "json");
                    assertEquals(1, run.exitCode(), () -> what + ": a refused config, exit " + run.exitCode()
                        + "\n" + FuzzInvariants.clip(run.stderr()));
                    assertEquals("", run.stdout(), what);
                    codes = FuzzInvariants.check(c, run, dir, seed);
                    assertFalse(codes.isEmpty(), what);
                    tally.add(c, 1, codes, caseStart);
                }
                try (Stream<Path> left = Files.list(dir)) {
                    assertEquals(files, left.sorted().toList(), () -> what + ": validation wrote a file");
                }
            } catch (AssertionError e) {
                FuzzInvariants.save(c);
                throw e;
            }
        }
        String summary = tally.write((System.nanoTime() - start) / 1_000_000);
        assertTrue(tally.cases() >= CASES, summary);
    }
}
