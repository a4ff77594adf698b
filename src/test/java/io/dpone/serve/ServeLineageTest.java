package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.jmx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.runtime.TickChecks;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.report.Json;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenLineage events through the file transport ({@code lineage: {file: ...}}): a job's full refresh and a stream's
 * CDC tick each emit START then COMPLETE with the same run id, whose data-quality assertions carry every gate (the
 * run's gates, the tick's checks) with their figures, with schema facets on both datasets and one-to-one column
 * lineage; a job whose source table is missing and a tick whose batch is refused emit FAIL. Datasets are named by
 * alias; no endpoint, path or secret is in any event.
 */
@io.dpone.testing.EngineTest
class ServeLineageTest {
    @TempDir
    Path dir;

    @Test
    void fullRefreshesAndTicksEmitStartAndCompleteWithEveryGateAndFailuresEmitFail() throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("lineage");
        try (Connection src = DriverManager.getConnection(h2, "sa", "")) {
            DemoSalesGenerator.seed(src, 1_000, 3);
        }
        Path cdc = Files.createDirectories(dir.resolve("cdc"));
        Files.copy(Path.of("examples/cdc/orders/events.json"), cdc.resolve("events.json"));
        Files.writeString(cdc.resolve("refused.json"), Files.readString(Path.of("examples/cdc/orders/events.json"))
            .replaceFirst("\"backend\": \"mssql_cdc\"", "\"backend\": \"mssql_change_tracking\""));
        Path manifest = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]");
        Path broken = Manifests.fullRefresh(dir, "no_such_table", db, null);
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h, start_after: 100ms}",
            """
              - name: broken
                manifest: %s
                schedule: {every: 1h, start_after: 100ms}
            lineage:
              file: lineage/events.jsonl
              namespace: dpone-test
            cdc_streams:
              - name: orders
                schedule: {every: 1h, start_after: 100ms}
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
              - name: refused
                schedule: {every: 1h, start_after: 100ms}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: refused-cdc
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.refused
                unique_keys: [order_id]
                events_json: cdc/refused.json
                checkpoint_json: cdc/refused_checkpoint.json
                output_dir: cdc/refused_out
            """.formatted(broken.toAbsolutePath())));
        Path events = dir.resolve("lineage/events.jsonl");
        try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(h2), Map.of())) {
            await(Duration.ofSeconds(90), "both jobs' runs and both streams' ticks",
                () -> (Long) jmx("io.dpone:type=jobs,name=sales", "Runs") >= 1
                    && (Long) jmx("io.dpone:type=jobs,name=broken", "Runs") >= 1
                    && (Long) jmx("io.dpone:type=cdc,name=orders", "Ticks") >= 1
                    && (Long) jmx("io.dpone:type=cdc,name=refused", "Ticks") >= 1);
            assertEquals("passed", jmx("io.dpone:type=jobs,name=sales", "LastStatus"));
        }
        List<JsonNode> all = new ArrayList<>();
        for (String line : Files.readAllLines(events)) {
            if (!line.isBlank()) {
                all.add(Json.MAPPER.readTree(line));
            }
        }
        String text = Files.readString(events);
        for (String leak : List.of(dir.toString(), "jdbc:", "://" + "127.0.0.1", "password")) {
            assertFalse(text.contains(leak), "an event holds " + leak);
        }

        // the full refresh: START, then COMPLETE with every gate, both schemas and the column lineage
        List<JsonNode> sales = of(all, "sales");
        assertEquals(List.of("START", "COMPLETE"), types(sales));
        assertEquals(sales.get(0).path("run").path("runId"), sales.get(1).path("run").path("runId"));
        JsonNode complete = sales.get(1);
        assertEquals("dpone-test", complete.path("job").path("namespace").asText());
        JsonNode input = complete.path("inputs").get(0);
        JsonNode output = complete.path("outputs").get(0);
        assertEquals("dpone:" + TestEngines.SOURCE, input.path("namespace").asText());
        assertEquals("dbo.sales", input.path("name").asText());
        assertEquals("dpone:" + TestEngines.CLICKHOUSE, output.path("namespace").asText());
        assertEquals(db + ".sales", output.path("name").asText());
        Set<String> gates = new TreeSet<>();
        for (JsonNode a : input.path("inputFacets").path("dataQualityAssertions").path("assertions")) {
            gates.add(a.path("assertion").asText());
            assertTrue(a.has("success") && a.path("params").has("status"), a.toString());
        }
        assertEquals(new TreeSet<>(TransferStats.GATES), gates, "every gate of the run is an assertion");
        JsonNode rowCount = find(input.path("inputFacets").path("dataQualityAssertions").path("assertions"),
            "row_count");
        assertTrue(rowCount.path("success").asBoolean());
        assertEquals("1000", rowCount.path("params").path("source_rows").asText());
        JsonNode sourceFields = input.path("facets").path("schema").path("fields");
        JsonNode targetFields = output.path("facets").path("schema").path("fields");
        assertEquals(sourceFields.size(), targetFields.size());
        assertTrue(sourceFields.size() >= 3, sourceFields.toString());
        JsonNode columnLineage = output.path("facets").path("columnLineage").path("fields");
        for (JsonNode f : targetFields) {
            JsonNode from = columnLineage.path(f.path("name").asText()).path("inputFields").get(0);
            assertEquals(f.path("name").asText(), from.path("field").asText(), "one-to-one: " + f);
            assertEquals("dbo.sales", from.path("name").asText());
            assertEquals("IDENTITY", from.path("transformations").get(0).path("subtype").asText());
        }

        // a failing run: START, then FAIL with its blocker
        List<JsonNode> broke = of(all, "broken");
        assertEquals(List.of("START", "FAIL"), types(broke));
        assertTrue(broke.get(1).path("run").path("facets").path("errorMessage").path("message").asText()
            .startsWith("source.table_missing"), broke.get(1).toString());

        // the CDC tick: START, then COMPLETE with the tick's checks and the batch's columns
        List<JsonNode> ticks = of(all, "orders");
        assertEquals(List.of("START", "COMPLETE"), types(ticks));
        JsonNode tickInput = ticks.get(1).path("inputs").get(0);
        Set<String> checks = new TreeSet<>();
        for (JsonNode a : tickInput.path("inputFacets").path("dataQualityAssertions").path("assertions")) {
            checks.add(a.path("assertion").asText());
            assertTrue(a.path("success").asBoolean(), a.toString());
        }
        assertEquals(new TreeSet<>(TickChecks.ALL), checks);
        assertEquals("dbo.orders", tickInput.path("name").asText());
        assertEquals(4, tickInput.path("facets").path("schema").path("fields").size(), tickInput.toString());
        assertEquals("analytics.orders", ticks.get(1).path("outputs").get(0).path("name").asText());

        List<JsonNode> refused = of(all, "refused");
        assertEquals(List.of("START", "FAIL"), types(refused));
        assertTrue(refused.get(1).path("run").path("facets").path("errorMessage").path("message").asText()
            .startsWith("cdc_runtime.backend_mismatch"), refused.get(1).toString());
    }

    private static List<JsonNode> of(List<JsonNode> events, String job) {
        return events.stream().filter(e -> job.equals(e.path("job").path("name").asText())).toList();
    }

    private static List<String> types(List<JsonNode> events) {
        return events.stream().map(e -> e.path("eventType").asText()).toList();
    }

    private static JsonNode find(JsonNode assertions, String gate) {
        for (JsonNode a : assertions) {
            if (gate.equals(a.path("assertion").asText())) {
                return a;
            }
        }
        throw new AssertionError("no assertion " + gate + " in " + assertions);
    }
}
