package io.dpone.serve;

import java.nio.file.Files;
import java.util.Map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.testing.CliRun;
import io.dpone.testing.Manifests;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The serve configuration: the shipped example loads; every problem is reported at once with its config path. */
class ServeConfigTest {
    @TempDir
    Path dir;

    @Test
    void shippedExampleLoads() {
        ServeConfig c = ServeConfigLoader.load(Path.of("examples/serve/embedded-serve.yaml"));
        assertEquals(8080, c.httpPort());
        assertEquals(1, c.jobs().size());
        ServeConfig.Job job = c.jobs().get(0);
        assertEquals("demo-sales", job.name());
        assertEquals(Duration.ofSeconds(60), job.schedule().every());
        assertEquals("typed_binary_streaming", job.manifest().sink().options().route());
        assertTrue(c.routesReload() && c.routesDirectory().endsWith(Path.of("examples/serve/routes")));
        assertEquals(Set.of("mssql_demo", "clickhouse_default"), ServeRuntime.readinessAliases(c));
        assertEquals("8080", ServeRuntime.properties(c).get("camel.management.port"));
        assertEquals("30", ServeRuntime.properties(c).get("camel.main.shutdownTimeout"));
        assertEquals(Duration.ofSeconds(30), c.httpIdleTimeout());
        assertEquals(Duration.ofSeconds(10), c.httpRequestTimeout());
    }

    @Test
    void shippedMultiTableExampleLoads() {
        ServeConfig c = ServeConfigLoader.load(Path.of("examples/cdc/multi-table/serve.yaml"));
        var o = c.cdcStreams().get(0).options();
        assertEquals(List.of("analytics.customers_cdc", "analytics.orders_cdc", "analytics.order_lines_cdc"),
            o.targetDatasets());
        assertEquals(List.of("order_id", "line_no"), o.tables().get(2).uniqueKeys());
        assertEquals("dbo.customers,dbo.orders,dbo.order_lines", o.stream().sourceTableName());
        assertEquals(List.of(), o.validate());
        assertEquals(List.of("analytics.customers", "analytics.orders", "analytics.order_lines"),
            List.copyOf(c.cdcStreams().get(0).materialize().tableTargets().values()));
    }

    @Test
    void shippedPatternExampleLoadsAndItsTemplatesAreChecked() throws Exception {
        ServeConfig c = ServeConfigLoader.load(Path.of("examples/cdc/multi-table/serve-patterns.yaml"));
        var o = c.cdcStreams().get(0).options();
        assertEquals(List.of("dbo.*"), o.selection().include());
        assertEquals(List.of("*_tmp", "dbo.audit*"), o.selection().exclude());
        assertEquals(List.of("analytics.{schema}_{table}_cdc"), o.targetDatasets());
        assertEquals(List.of(), o.validate());
        assertEquals("analytics.{table}", c.cdcStreams().get(0).materialize().targetTemplate());
        String bad = java.nio.file.Files.readString(Path.of("examples/cdc/multi-table/serve-patterns.yaml"))
            .replace("\"analytics.{schema}_{table}_cdc\"", "\"analytics.{schema}\"")
            .replace("target_template: \"analytics.{table}\"", "target_template: \"analytics.{table}_cdc\"");
        Path f = java.nio.file.Files.writeString(dir.resolve("bad-patterns.yaml"), bad);
        io.dpone.error.DponeException e = org.junit.jupiter.api.Assertions.assertThrows(
            io.dpone.error.DponeException.class, () -> ServeConfigLoader.load(f));
        assertEquals(List.of("cdc_streams[0].target_template"), e.blockers().stream()
            .map(io.dpone.error.Blocker::subject).toList(), String.valueOf(e.blockers()));
    }

    @Test
    void managementTimeoutsOutOfRangeAreRefusedWithTheirPath() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        Path file = Manifests.write(dir.resolve("timeouts.yaml"), """
            http: {idle_timeout: 0s, request_timeout: 2h}
            jobs:
              - name: a
                manifest: %s
                schedule: {every: 10s}
            """.formatted(manifest));
        DponeException e = assertThrows(DponeException.class, () -> ServeConfigLoader.load(file));
        Set<String> at = e.blockers().stream().map(b -> b.code() + "@" + b.subject()).collect(Collectors.toSet());
        assertEquals(Set.of("serve.config_invalid@http.idle_timeout", "serve.config_invalid@http.request_timeout"), at);
        Path ok = Manifests.write(dir.resolve("timeouts-ok.yaml"), """
            http: {idle_timeout: 2m, request_timeout: 500ms}
            jobs:
              - name: a
                manifest: %s
                schedule: {every: 10s}
            """.formatted(manifest));
        ServeConfig c = ServeConfigLoader.load(ok);
        assertEquals(Duration.ofMinutes(2), c.httpIdleTimeout());
        assertEquals(Duration.ofMillis(500), c.httpRequestTimeout());
    }

    @Test
    void readinessProbesTheObjectStorageOfAColumnarJob() {
        Path file = Manifests.write(dir.resolve("s3.yaml"), """
            jobs:
              - name: columnar
                manifest: %s
                schedule: {every: 1h}
            """.formatted(Path.of("examples/certification/embedded-sales.yaml").toAbsolutePath()));
        assertEquals(Set.of("mssql_demo", "clickhouse_default", "s3_stage"),
            ServeRuntime.readinessAliases(ServeConfigLoader.load(file)));
    }

    @Test
    void everyProblemIsReportedWithItsPath() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        Path file = Manifests.write(dir.resolve("bad.yaml"), """
            http: {port: 70000}
            colour: blue
            routes: {reload: maybe}
            shutdown: {timeout: soon}
            camel_properties: {camel.main.jmxManagementStatisticsLevel: Extended, dpone.x: y}
            jobs:
              - name: a
                manifest: %s
                schedule: {every: 10s, cron: "0 * * * * ?"}
              - name: a
                manifest: missing.batch.yaml
                schedule: {cron: "every minute"}
              - name: "bad name!"
                manifest: %s
                schedule: {every: 10ms}
            """.formatted(manifest, manifest));
        DponeException e = assertThrows(DponeException.class, () -> ServeConfigLoader.load(file));
        Set<String> at = e.blockers().stream().map(b -> b.code() + "@" + b.subject()).collect(Collectors.toSet());
        for (String expected : List.of("serve.config_invalid@http.port", "serve.config_invalid@colour",
            "serve.config_invalid@routes.reload", "serve.config_invalid@shutdown.timeout",
            "serve.config_invalid@jobs[0].schedule", "serve.config_invalid@jobs[1].name",
            "manifest.unreadable@jobs[1].manifest:$", "serve.config_invalid@jobs[1].schedule.cron",
            "serve.config_invalid@jobs[2].name", "serve.config_invalid@jobs[2].schedule.every",
            "serve.config_invalid@camel_properties.dpone.x")) {
            assertTrue(at.contains(expected), () -> expected + " not in " + at);
        }
    }

    @Test
    void aLiveStreamCarriesItsValuePoliciesAndAnUnknownPolicyIsRefusedAtItsPath() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        String stream = """
            cdc_streams:
              - name: validity
                mode: live
                schedule: {every: 1s}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: validity-live
                source_schema: dbo
                source_table: validity
                target_dataset: db.validity_cdc
                unique_keys: [order_id]
                source_connection_id: mssql_demo
                sink_connection_id: clickhouse_demo
                value_policy: {default: clamp, columns: {born: %s}}
            """;
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}",
            stream.formatted("null")));
        var policies = config.cdcStreams().get(0).options().valuePolicies();
        assertEquals(io.dpone.manifest.ValuePolicy.CLAMP, policies.defaultPolicy());
        assertEquals(io.dpone.manifest.ValuePolicy.NULL, policies.forColumn("BORN"));

        List<Blocker> blockers = assertThrows(DponeException.class, () -> ServeConfigLoader.load(
            ServeFixture.config(dir, manifest, "{every: 1h}", stream.formatted("truncate")))).blockers();
        assertEquals(List.of("cdc_streams[0].value_policy.columns.born"),
            blockers.stream().map(Blocker::subject).toList(), blockers.toString());
    }

    @Test
    void aLiveStreamMayAllowCaptureInstanceDdlAndOnlyAnMssqlCdcStream() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        String stream = """
            cdc_streams:
              - name: orders
                mode: live
                schedule: {every: 1s}
                source: mssql
                sink: clickhouse
                backend: %s
                pipeline_name: orders-live
                source_schema: dbo
                source_table: orders
                target_dataset: db.orders_cdc
                unique_keys: [order_id]
                source_connection_id: mssql_demo
                sink_connection_id: clickhouse_demo
                %s
            """;
        assertTrue(ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}", stream.formatted(
            "mssql_cdc", "allow_capture_instance_ddl: true"))).cdcStreams().get(0).options().allowCaptureInstanceDdl());
        assertFalse(ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}", stream.formatted(
            "mssql_cdc", ""))).cdcStreams().get(0).options().allowCaptureInstanceDdl(), "off unless given");

        List<Blocker> blockers = assertThrows(DponeException.class, () -> ServeConfigLoader.load(
            ServeFixture.config(dir, manifest, "{every: 1h}", stream.formatted("mssql_change_tracking",
                "allow_capture_instance_ddl: true")))).blockers();
        assertEquals(List.of("cdc_streams[0].allow_capture_instance_ddl"),
            blockers.stream().map(Blocker::subject).toList(), blockers.toString());
        blockers = assertThrows(DponeException.class, () -> ServeConfigLoader.load(ServeFixture.config(dir, manifest,
            "{every: 1h}", stream.formatted("mssql_cdc", "allow_capture_instance_ddl: yes please")))).blockers();
        assertTrue(blockers.toString().contains("allow_capture_instance_ddl"), blockers.toString());
    }

    @Test
    void aMultiTableStreamNamesItsTablesAndEachTablesServingTarget() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        String stream = """
            cdc_streams:
              - name: shop
                mode: live
                schedule: {every: 1s}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: shop-live
                tables:
                  - {source_schema: dbo, source_table: customers, target_dataset: db.customers_cdc, unique_keys: [id]}
                  - {source_schema: dbo, source_table: orders, target_dataset: %s, unique_keys: [order_id]}
                source_connection_id: mssql_demo
                sink_connection_id: clickhouse_demo
            %s
            """;
        ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}",
            stream.formatted("db.orders_cdc", "")));
        var o = config.cdcStreams().get(0).options();
        assertEquals(List.of("db.customers_cdc", "db.orders_cdc"), o.targetDatasets());
        assertEquals(List.of("order_id"), o.tables().get(1).uniqueKeys());
        assertEquals("cdc:db.customers_cdc,db.orders_cdc", config.cdcStreams().get(0).targetKey());
        Set<String> at = assertThrows(DponeException.class, () -> ServeConfigLoader.load(ServeFixture.config(dir,
            manifest, "{every: 1h}", stream.formatted("other.orders_cdc",
                "    materialize: {target_dataset: serving.shop}")))).blockers().stream()
            .map(Blocker::subject).collect(Collectors.toSet());
        assertEquals(Set.of("cdc_streams[0].table", "cdc_streams[0].materialize.target_dataset",
            "cdc_streams[0].tables[0].materialize_target", "cdc_streams[0].tables[1].materialize_target"), at);
        String targets = """
            cdc_streams:
              - name: shop
                mode: live
                schedule: {every: 1s}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: shop-live
                tables:
                  - {source_schema: dbo, source_table: customers, target_dataset: db.customers_cdc, unique_keys: [id],
                     materialize_target: %s}
                  - {source_schema: dbo, source_table: orders, target_dataset: db.orders_cdc, unique_keys: [order_id],
                     materialize_target: %s}
                source_connection_id: mssql_demo
                sink_connection_id: clickhouse_demo
            %s
            """;
        ServeConfig.Materialize m = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}",
            targets.formatted("serving.customers", "serving.orders",
                "    materialize: {mode: rebuild, delete_mode: tombstone}"))).cdcStreams().get(0).materialize();
        assertEquals(Map.of("dbo.customers", "serving.customers", "dbo.orders", "serving.orders"), m.tableTargets());
        assertEquals(List.of("dbo.customers", "dbo.orders"), List.copyOf(m.tableTargets().keySet()));
        assertEquals(io.dpone.cdc.clickhouse.CdcMaterializer.Mode.rebuild, m.mode());
        assertEquals("serving.customers, serving.orders", m.targets());
        Set<String> bad = assertThrows(DponeException.class, () -> ServeConfigLoader.load(ServeFixture.config(dir,
            manifest, "{every: 1h}", targets.formatted("db.orders_cdc", "serving.x;drop",
                "    materialize: {}\n    verify: {every: PT1H}")))).blockers().stream()
            .map(Blocker::subject).collect(Collectors.toSet());
        assertEquals(Set.of("cdc_streams[0].tables[0].materialize_target",
            "cdc_streams[0].tables[1].materialize_target", "cdc_streams[0].verify"), bad);
        Set<String> twice = assertThrows(DponeException.class, () -> ServeConfigLoader.load(ServeFixture.config(dir,
            manifest, "{every: 1h}", targets.formatted("serving.same", "serving.same", "")))).blockers().stream()
            .map(Blocker::subject).collect(Collectors.toSet());
        assertEquals(Set.of("cdc_streams[0].tables[0].materialize_target",
            "cdc_streams[0].tables[1].materialize_target"), twice);
        Set<String> same = assertThrows(DponeException.class, () -> ServeConfigLoader.load(ServeFixture.config(dir,
            manifest, "{every: 1h}", targets.formatted("serving.same", "serving.same", "    materialize: {}"))))
            .blockers().stream().map(Blocker::subject).collect(Collectors.toSet());
        assertEquals(Set.of("cdc_streams[0].tables[1].materialize_target"), same);
    }

    @Test
    void schemaViolationsCarryTheirLineAndColumn() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        Path file = Manifests.write(dir.resolve("located.yaml"), """
            http:
              port: 0
            jobs:
              - name: a
                manifest: %s
                schedule: {every: 10s}
                colour: blue
              - name: b
                manifest: %s
                schedule: {start_after: 1s}
            """.formatted(manifest, manifest));
        List<Blocker> blockers = assertThrows(DponeException.class, () -> ServeConfigLoader.load(file)).blockers();
        Map<String, Blocker> by = blockers.stream().collect(Collectors.toMap(Blocker::subject, b -> b, (a, b) -> a));
        assertEquals(Map.of("line", 2, "column", 3), by.get("http.port").details(), blockers.toString());
        assertEquals("must be at least 1", by.get("http.port").message());
        assertEquals(Map.of("line", 7, "column", 5), by.get("jobs[0].colour").details());
        assertEquals("unknown key 'colour'", by.get("jobs[0].colour").message());
        assertTrue(by.get("jobs[1].schedule").message().startsWith("must be a mapping with exactly one of 'every'"),
            by.get("jobs[1].schedule").message());
        assertEquals(Map.of("line", 10, "column", 5), by.get("jobs[1].schedule").details());
    }

    @Test
    void aStreamsMaterializeBlockIsReadAndNeedsAClickHouseLog() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        String stream = """
            cdc_streams:
              - name: orders
                schedule: {every: 1s}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: orders
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders_cdc
                unique_keys: [order_id]
                events_json: events.json
                checkpoint_json: checkpoint.json
                output_dir: out
            %s
                materialize:
                  target_dataset: serving.orders
                  delete_mode: tombstone
                  tombstone_retention: %s
            """;
        ServeConfig ok = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}",
            stream.formatted("    sink_connection_id: ch", "PT12H")));
        ServeConfig.Materialize m = ok.cdcStreams().get(0).materialize();
        assertEquals("serving.orders", m.targetDataset());
        assertEquals(io.dpone.cdc.clickhouse.CdcMaterializer.Mode.incremental, m.mode());
        assertEquals(io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode.tombstone, m.deleteMode());
        assertEquals(java.time.Duration.ofHours(12), m.tombstoneRetention());
        Set<String> at = assertThrows(DponeException.class, () -> ServeConfigLoader.load(ServeFixture.config(dir,
            manifest, "{every: 1h}", stream.formatted("", "soon")))).blockers().stream()
            .map(b -> b.code() + "@" + b.subject()).collect(Collectors.toSet());
        assertTrue(at.containsAll(Set.of("serve.config_invalid@cdc_streams[0].materialize",
            "serve.config_invalid@cdc_streams[0].materialize.tombstone_retention")), at::toString);
    }

    @Test
    void aStreamsVerifyBlockIsReadAndNeedsALiveMaterializedStream() {
        Path manifest = Manifests.fullRefresh(dir, "sales", "db", null);
        String stream = """
            cdc_streams:
              - name: orders
                schedule: {every: 1s}
                mode: %s
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: orders
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders_cdc
                unique_keys: [order_id]
                sink_connection_id: ch
            %s
                materialize:
                  target_dataset: serving.orders
                verify: {every: %s, buckets: %s, repair: true}
            """;
        ServeConfig ok = ServeConfigLoader.load(ServeFixture.config(dir, manifest, "{every: 1h}",
            stream.formatted("live", "    source_connection_id: src", "PT1H", "64")));
        ServeConfig.Verify v = ok.cdcStreams().get(0).verify();
        assertEquals(java.time.Duration.ofHours(1), v.every());
        assertEquals(64, v.buckets());
        assertTrue(v.repair());
        Set<String> at = assertThrows(DponeException.class, () -> ServeConfigLoader.load(ServeFixture.config(dir,
            manifest, "{every: 1h}", stream.formatted("local", "    events_json: events.json\n"
                + "    checkpoint_json: checkpoint.json\n    output_dir: out", "hourly", "6")))).blockers().stream()
            .map(b -> b.code() + "@" + b.subject()).collect(Collectors.toSet());
        assertTrue(at.containsAll(Set.of("serve.config_invalid@cdc_streams[0].verify",
            "serve.config_invalid@cdc_streams[0].verify.every", "serve.config_invalid@cdc_streams[0].verify.buckets")),
            at::toString);
    }

    @Test
    void publishedSchemaInDocsIsTheOneTheLoaderUses() throws Exception {
        assertEquals(Files.readString(Path.of("src/main/resources" + ServeConfigLoader.SCHEMA)),
            Files.readString(Path.of("docs/serve-config.schema.json")));
    }

    @Test
    void aConfigOverTheBoundIsServeConfigTooLargeUnread() throws Exception {
        Path big = dir.resolve("big.yaml");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(60L * 1024 * 1024);
        }
        Blocker b = assertThrows(DponeException.class, () -> ServeConfigLoader.load(big)).blockers().get(0);
        assertEquals("serve.config_too_large", b.code());
        assertTrue(b.message().contains("serve configuration") && !b.message().contains(dir.toString()), b.message());
        Path line = Manifests.write(dir.resolve("line.yaml"),
            "jobs:\n  - name: \"" + "a".repeat(io.dpone.connect.BoundedYaml.MAX_LINE_CHARS) + "\"\n");
        assertEquals("serve.config_too_large",
            assertThrows(DponeException.class, () -> ServeConfigLoader.load(line)).blockers().get(0).code());
    }

    @Test
    void yamlErrorsCarryLineAndColumn() {
        Path file = Manifests.write(dir.resolve("syntax.yaml"), "jobs:\n  - name: a\n   manifest: [\n");
        Blocker b = assertThrows(DponeException.class, () -> ServeConfigLoader.load(file)).blockers().get(0);
        assertEquals("serve.config_invalid", b.code());
        assertTrue(b.message().matches("invalid YAML at line \\d+, column \\d+"), b.message());
        assertEquals("serve.config_unreadable", assertThrows(DponeException.class,
            () -> ServeConfigLoader.load(dir.resolve("nope.yaml"))).blockers().get(0).code());
    }

    @Test
    void cliRefusesABadConfigWithATypedDocumentOnStderr() {
        Path file = Manifests.write(dir.resolve("empty.yaml"), "http: {port: 8080}\n");
        CliRun run = CliRun.of("serve", "--config", file.toString(), "--log-format", "json");
        assertEquals(1, run.exitCode());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().contains("\"serve.config_invalid\"") && run.stderr().contains("dpone.serve.v1"),
            run.stderr());
        assertTrue(!run.stderr().contains(dir.toString()), "no local path in the output");
    }

    @Test
    void jsonLogLinesAreStructuredAndRedacted() {
        String line = JsonLogStream.toJson("[main] WARN io.dpone.serve.BatchJob - failed at jdbc:sqlserver://db:1433;"
            + "password=hunter22 in /var/lib/dpone/state", Instant.parse("2026-01-01T00:00:00Z"));
        assertTrue(line.startsWith("{\"ts\":\"2026-01-01T00:00:00Z\",\"level\":\"WARN\",\"thread\":\"main\","
            + "\"logger\":\"io.dpone.serve.BatchJob\",\"message\":"), line);
        assertTrue(!line.contains("hunter22") && !line.contains("/var/lib/dpone") && !line.contains("db:1433"), line);
        String stamped = JsonLogStream.toJson("2026-02-02T10:00:00.000Z [Camel (camel-1) thread #3 - timer://x] INFO a.B - hi",
            Instant.parse("2026-01-01T00:00:00Z"));
        assertTrue(stamped.startsWith("{\"ts\":\"2026-02-02T10:00:00.000Z\",\"level\":\"INFO\",\"thread\":\"Camel (camel-1)"
            + " thread #3 - timer://x\",\"logger\":\"a.B\",\"message\":\"hi\"}"), stamped);
        String other = JsonLogStream.toJson("plain text", Instant.parse("2026-01-01T00:00:00Z"));
        assertTrue(other.contains("\"logger\":\"stderr\"") && other.contains("\"message\":\"plain text\""), other);
    }

    @Test
    void cdcLagIsTheDistanceToTheHighWatermarkWhenBothAreNumbers() {
        assertEquals(5, CdcStreamStats.lagOf("10", "15"));
        assertEquals(15, CdcStreamStats.lagOf("", "15"));
        assertEquals(-1, CdcStreamStats.lagOf("0x0001", "0x0002"));
    }
}
