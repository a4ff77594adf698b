package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.manifest.ManifestLoader;
import io.dpone.storage.EmbeddedS3;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpone certify route-capabilities} on the embedded engines, and each capability probe by its real cause. */
@io.dpone.testing.EngineTest
class CertificationTest {
    static final List<String> FILES = List.of("certification.json", "certification.md", "route_decisions.jsonl",
        "load_steps.json", "quality_report.json");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static String h2;
    static Connection source;
    static EmbeddedS3 externalS3;
    static String planted;

    @BeforeAll
    static void seed() throws Exception {
        h2 = TestEngines.newH2Url();
        source = DriverManager.getConnection(h2, "sa", "");
        DemoSalesGenerator.seed(source, 3_000, 9);
        externalS3 = EmbeddedS3.filesystem(dir.resolve("external-s3"));
        externalS3.createBucket("dpone-stage");
        planted = externalS3.secretKey();
        Files.writeString(dir.resolve("s3-secret"), planted);
        Files.writeString(dir.resolve("s3-wrong"), "not-the-secret-key-00000000000000000000");
    }

    @AfterAll
    static void close() throws Exception {
        externalS3.close();
        source.close();
    }

    private static String manifest(String db, String readMode, String collection) {
        return """
            name: cert-test
            source:
              type: mssql
              connection_ref: mssql_test
              table: {schema: dbo, name: sales}
              options:
                chunk_rows: 1000
                native_transfer:
                  snapshot:
                    columnar_fast_path:
                      object_storage:
                        uri_prefix: s3://dpone-stage/cert/{run_id}/
                        runtime_access: {connection_type: context, connection_id: s3_test}
                        clickhouse_read_access: {mode: %s%s}
            sink:
              type: clickhouse
              connection_ref: clickhouse_test
              table: {schema: %s, name: sales}
              strategy: {mode: full_refresh}
              options:
                order_by: [sale_id]
                clickhouse_bulk: {columnar_pull: {use_cluster_function: always, cluster: dwh}}
            quality:
              distinct_columns: [status]
            certification:
              target_schema: %s
              scenarios: {small_live: {repetitions: 2}}
            """.formatted(readMode, collection == null ? "" : ", named_collection: " + collection, db, db + "_cert");
    }

    private static ConnectionContext context(ContextEntry s3) {
        Map<String, ContextEntry> m = new HashMap<>();
        ConnectionContext base = TestEngines.context(h2);
        m.put(TestEngines.SOURCE, base.entry(TestEngines.SOURCE).orElseThrow());
        m.put(TestEngines.CLICKHOUSE, base.entry(TestEngines.CLICKHOUSE).orElseThrow());
        m.put("s3_test", s3);
        return ConnectionContext.of(m, false);
    }

    private static ContextEntry embeddedS3() {
        return new ContextEntry("s3_test", ConnectionType.S3, null, null, null, null, true,
            Map.of("path", dir.resolve("embedded-s3").toString()));
    }

    private static ContextEntry externalS3(String secretFile, String clickhouseEndpoint) {
        return new ContextEntry("s3_test", ConnectionType.S3, externalS3.endpoint(), externalS3.accessKey(), null,
            dir.resolve(secretFile).toString(), false, Map.of("clickhouse_endpoint", clickhouseEndpoint));
    }

    private static CertificationReport certify(String name, String manifestYaml, ConnectionContext ctx, String scenario,
                                               Path workDir) {
        Path m = Manifests.write(dir.resolve(name + ".yaml"), manifestYaml);
        return new Certification(ctx, workDir).run(ManifestLoader.load(m), Scenario.resolve(ManifestLoader.load(m),
            scenario), "cert-" + name, dir.resolve("out-" + name));
    }

    private static Map<String, RouteDecision> byRoute(CertificationReport r) {
        return r.routes().stream().collect(Collectors.toMap(RouteDecision::routeId, d -> d));
    }

    private static List<String> codes(RouteDecision d) {
        return d.blockers().stream().map(Blocker::code).distinct().toList();
    }

    @Test
    void smallLiveCertifiesSixRoutesBlocksS3ClusterAndPrefersAGreenOne() throws Exception {
        String db = TestEngines.newDatabase("cert");
        CertificationReport r = certify("live", manifest(db, "named_collection", "dpone_stage"),
            context(embeddedS3()), "small_live", dir.resolve("state-live"));
        Map<String, RouteDecision> d = byRoute(r);
        assertEquals(Scenario.DEFAULT_ROUTES, r.routes().stream().map(RouteDecision::routeId).toList());
        for (String route : Scenario.DEFAULT_ROUTES.subList(0, 6)) {
            assertEquals("green", d.get(route).status(), () -> route + " " + d.get(route).blockers());
            assertEquals(3_000, d.get(route).rows());
        }
        assertEquals("blocked", d.get("object_storage_pull_s3cluster").status());
        assertEquals(List.of("sink.cluster_pull_unsupported"), codes(d.get("object_storage_pull_s3cluster")));
        assertNotNull(r.preferredRouteId());
        RouteDecision preferred = d.get(r.preferredRouteId());
        assertTrue(preferred.selectable());
        RouteDecision fastest = d.get(r.decision().fastestRouteId());
        assertTrue(r.routes().stream().filter(RouteDecision::selectable).allMatch(x ->
            x.rowsPerSecondStats().median() <= fastest.rowsPerSecondStats().median()), "fastest median");
        assertEquals(r.decision().withinNoise() ? RouteChoice.decide(r.routes()).preferredRouteId()
            : fastest.routeId(), r.preferredRouteId());
        assertTrue(r.passed());
        assertEquals(2, r.measurement().repetitions());
        assertTrue(r.measurement().warmup());
        assertEquals(List.of(Scenario.DEFAULT_ROUTES, RouteRotation.order(Scenario.DEFAULT_ROUTES, 1)),
            r.measurement().orders());
        for (String route : Scenario.DEFAULT_ROUTES.subList(0, 6)) {
            RouteDecision x = d.get(route);
            assertEquals(2, x.runs().size(), route);
            assertTrue(x.runs().stream().allMatch(run -> run.rows() == 3_000 && run.status().equals("green")), route);
            RateStats s = x.rowsPerSecondStats();
            assertTrue(s.min() > 0 && s.min() <= s.median() && s.median() <= s.max(), route + " " + s);
            assertEquals(s.median(), x.rowsPerSecond(), route);
        }

        Path out = dir.resolve("out-live");
        for (String f : FILES) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f);
        }
        JsonNode cert = JSON.readTree(out.resolve("certification.json").toFile());
        assertEquals("dpone.route_capability_certification.v1", cert.get("schema").asText());
        assertEquals(io.dpone.report.BuildInfo.commit(), cert.get("build_commit").asText(),
            "the evidence names the build it certifies");
        assertEquals(r.preferredRouteId(), cert.get("preferred_route_id").asText());
        assertEquals(r.preferredRouteId(), cert.at("/decision/preferred_route_id").asText());
        assertEquals(r.decision().withinNoise(), cert.at("/decision/within_noise").asBoolean());
        assertEquals("typed_binary_streaming", cert.at("/decision/order/0").asText());
        assertEquals(2, cert.at("/measurement/repetitions").asInt());
        assertEquals(2, cert.at("/measurement/orders").size());
        JsonNode stats = cert.at("/routes/1/rows_per_second_stats");
        for (String key : List.of("median", "min", "max", "spread", "spread_pct")) {
            assertTrue(stats.has(key), key);
        }
        assertEquals(2, cert.at("/routes/1/runs").size());
        String md = Files.readString(out.resolve("certification.md"));
        assertTrue(md.contains("```mermaid\nxychart-beta\n"), md);
        assertTrue(md.contains("| median rows/s | min rows/s | max rows/s |"), md);
        assertTrue(md.contains("    bar [" + d.get("typed_raw_streaming").rowsPerSecondStats().median() + ", "), md);
        assertTrue(md.contains("| `typed_binary_streaming` | green | "
            + d.get("typed_binary_streaming").rowsPerSecondStats().median() + " | "), md);
        List<JsonNode> lines = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("route_decisions.jsonl"))) {
            lines.add(JSON.readTree(line));
        }
        assertEquals(Scenario.DEFAULT_ROUTES, lines.stream().filter(l -> l.get("schema").asText()
            .equals("dpone.route_decision.v1")).map(l -> l.get("route_id").asText()).toList());
        assertEquals(List.of("parquet_writer", "runtime_write", "named_collection", "cluster", "clickhouse_read",
            "runtime_delete"), lines.stream().filter(l -> l.get("schema").asText().equals("dpone.route_probe.v1")
                && l.get("route_id").asText().equals("object_storage_pull_s3")).map(l -> l.get("probe").asText())
            .toList(), "a live object-storage route's probes follow its decision");
        JsonNode quality = JSON.readTree(out.resolve("quality_report.json").toFile()).get("routes");
        for (String route : Scenario.DEFAULT_ROUTES.subList(0, 6)) {
            assertTrue(quality.get(route).get("passed").asBoolean(), route);
        }
        assertFalse(quality.get("object_storage_pull_s3cluster").get("passed").asBoolean());
        JsonNode gates = quality.at("/typed_binary_streaming/gates");
        for (JsonNode g : gates) {
            if (g.get("gate").asText().equals("metadata_columns")) {
                assertEquals("[\"__dpone__run_id\",\"__dpone__load_id\",\"__dpone__loaded_at\","
                    + "\"__dpone__extracted_at\"]", g.at("/details/columns").toString());
            }
            if (g.get("gate").asText().equals("null_counts")) {
                JsonNode status = g.at("/details/columns/status");
                assertEquals(status.get("source").asLong(), status.get("target").asLong());
                assertTrue(status.has("source"), g.toString());
            }
        }
        assertEquals(2, java.util.stream.StreamSupport.stream(gates.spliterator(), false).filter(g -> List.of(
            "metadata_columns", "null_counts").contains(g.get("gate").asText())).count());
        JsonNode steps = JSON.readTree(out.resolve("load_steps.json").toFile()).get("routes");
        assertTrue(steps.get("object_storage_pull_s3").has("upload"));
        assertTrue(steps.get("object_storage_pull_s3").has("clickhouse_pull"));
        assertTrue(steps.get("typed_binary_streaming").has("clickhouse_load"));

        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals(List.of(), ch.query("SELECT name FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db)), "the production target is never touched");
            assertEquals(List.of(), ch.query("SELECT name FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db + "_cert")), "certification targets and staging are gone");
        }
    }

    @Test
    void preflightOnlyReadsNoSourceDataAndCreatesNothing() throws Exception {
        String db = TestEngines.newDatabase("pre");
        try (var st = source.createStatement()) {
            st.execute("CREATE TABLE dbo.poison AS SELECT * FROM dbo.sales");
            st.execute("UPDATE dbo.poison SET sale_date = DATE '1850-01-01' WHERE sale_id = 1"); // unreadable row
        }
        CertificationReport r = certify("pre", manifest(db, "named_collection", "dpone_stage")
            .replace("name: sales}", "name: poison}").replaceFirst("name: poison}", "name: sales}")
            .replaceFirst("table: \\{schema: dbo, name: sales}", "table: {schema: dbo, name: poison}"),
            context(embeddedS3()), "preflight_only", dir.resolve("state-pre"));
        Map<String, RouteDecision> d = byRoute(r);
        for (String route : Scenario.DEFAULT_ROUTES.subList(0, 6)) {
            assertEquals("probed", d.get(route).status(), () -> route + " " + d.get(route).blockers());
            assertEquals(0, d.get(route).rows());
        }
        assertEquals(List.of("sink.cluster_pull_unsupported"), codes(d.get("object_storage_pull_s3cluster")));
        assertTrue(r.passed(), "one blocked route does not fail preflight while others are selectable");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals(List.of(), ch.query("SELECT name FROM system.tables WHERE database IN ("
                + ClickHouseSql.literal(db) + ", " + ClickHouseSql.literal(db + "_cert") + ")"));
        }
    }

    @Test
    void preflightWithEveryRouteBlockedFailsAndStillWritesTheEvidence() throws Exception {
        String db = TestEngines.newDatabase("none");
        CertificationReport r = certify("none", manifest(db, "named_collection", "dpone_stage")
            .replaceFirst("table: \\{schema: dbo, name: sales}", "table: {schema: dbo, name: no_such_table}"),
            context(embeddedS3()), "preflight_only", dir.resolve("state-none"));
        assertTrue(r.routes().stream().allMatch(d -> d.status().equals("blocked")),
            () -> r.routes().stream().map(d -> d.routeId() + "=" + d.status()).toList().toString());
        assertFalse(r.passed());
        assertEquals(List.of("certify.no_green_route"), r.blockers().stream().map(Blocker::code).toList());
        for (String f : FILES) {
            assertTrue(Files.isRegularFile(dir.resolve("out-none").resolve(f)), f);
        }
        assertFalse(JSON.readTree(dir.resolve("out-none").resolve("certification.json").toFile())
            .get("passed").asBoolean());
    }

    @Test
    void productionTargetTouchedComesFromItsStateBeforeAndAfter() throws Exception {
        String db = TestEngines.newDatabase("prod");
        String table = ClickHouseSql.table(db, "sales");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(db));
            ch.execute("CREATE TABLE " + table + " (x UInt8) ENGINE = MergeTree ORDER BY x");
            ch.execute("INSERT INTO " + table + " VALUES (1)");
        }
        Path m = Manifests.write(dir.resolve("prod.yaml"), manifest(db, "named_collection", "dpone_stage"));
        var manifest = ManifestLoader.load(m);
        ConnectionContext ctx = context(embeddedS3());
        CertificationReport untouched = new Certification(ctx, dir.resolve("state-prod")).run(manifest,
            Scenario.resolve(manifest, "preflight_only"), "cert-prod-1", dir.resolve("out-prod-1"));
        assertEquals(false, untouched.safeOverrides().get("production_target_touched"));

        Certification.RouteProgress writesProduction = (index, total, routeId) -> {
            if (index == 2) {
                try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
                    ch.execute("INSERT INTO " + table + " VALUES (2)"); // another writer, mid-certification
                }
            }
            return io.dpone.route.ProgressListener.NONE;
        };
        CertificationReport touched = new Certification(ctx, dir.resolve("state-prod")).run(manifest,
            Scenario.resolve(manifest, "preflight_only"), "cert-prod-2", dir.resolve("out-prod-2"), writesProduction);
        assertEquals(true, touched.safeOverrides().get("production_target_touched"));
        assertTrue(touched.warnings().stream().anyMatch(w -> w.contains("production target changed")),
            touched.warnings()::toString);
        assertTrue(JSON.readTree(dir.resolve("out-prod-2").resolve("certification.json").toFile())
            .at("/safe_overrides/production_target_touched").asBoolean());
    }

    @Test
    void missingNamedCollectionBlocksTheObjectRoutesOnly() throws Exception {
        CertificationReport r = certify("nc", manifest(TestEngines.newDatabase("nc"), "named_collection",
            "no_such_collection"), context(externalS3("s3-secret", externalS3.endpoint())), "preflight_only",
            dir.resolve("state-nc"));
        Map<String, RouteDecision> d = byRoute(r);
        assertEquals("probed", d.get("typed_binary_streaming").status());
        for (String route : List.of("object_storage_pull.chunked", "object_storage_pull.file", "object_storage_pull_s3")) {
            assertEquals(List.of("sink.auth.named_collection_missing"), codes(d.get(route)), route);
        }
        Map<String, JsonNode> probes = new java.util.LinkedHashMap<>();
        List<String> schemas = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("out-nc").resolve("route_decisions.jsonl"))) {
            JsonNode l = JSON.readTree(line);
            schemas.add(l.get("route_id").asText() + " " + l.get("schema").asText());
            if (l.has("probe")) {
                probes.put(l.get("route_id").asText() + "/" + l.get("probe").asText(), l);
            }
        }
        assertEquals("typed_raw_streaming dpone.route_decision.v1", schemas.get(0));
        assertEquals("typed_raw_streaming dpone.route_probe.v1", schemas.get(1), "the route's probes follow it");
        for (String route : Scenario.DEFAULT_ROUTES) {
            assertEquals("passed", probes.get(route + "/clickhouse_query").get("status").asText(), route);
            assertEquals("passed", probes.get(route + "/source_metadata").get("status").asText(), route);
        }
        assertEquals(null, probes.get("typed_binary_streaming/named_collection"), "streaming routes have no such probe");
        JsonNode missing = probes.get("object_storage_pull_s3/named_collection");
        assertEquals("failed", missing.get("status").asText());
        assertEquals("sink.auth.named_collection_missing", missing.get("code").asText());
        assertEquals("passed", probes.get("object_storage_pull_s3/runtime_write").get("status").asText());
        assertEquals("skipped", probes.get("object_storage_pull_s3/clickhouse_read").get("status").asText());
        assertEquals("skipped", probes.get("object_storage_pull_s3/cluster").get("status").asText());
    }

    @Test
    void aNamedCollectionWithWrongKeysIsUnusableNotAParquetReadProblem() throws Exception {
        String wrongSecret = "wrong-collection-secret-000000000000000";
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("DROP NAMED COLLECTION IF EXISTS wrong_keys");
            ch.execute("CREATE NAMED COLLECTION wrong_keys AS access_key_id = " + ClickHouseSql.literal(
                externalS3.accessKey()) + ", secret_access_key = " + ClickHouseSql.literal(wrongSecret));
        }
        try {
            CertificationReport r = certify("wrongkeys", manifest(TestEngines.newDatabase("wk"), "named_collection",
                "wrong_keys"), context(externalS3("s3-secret", externalS3.endpoint())), "preflight_only",
                dir.resolve("state-wk"));
            RouteDecision s3 = byRoute(r).get("object_storage_pull_s3");
            assertEquals(List.of("sink.auth.named_collection_unusable"), codes(s3), s3.blockers()::toString);
            assertEquals("credentials_refused", s3.blockers().get(0).details().get("reason"));
            assertEquals("clickhouse_read_access.named_collection", s3.blockers().get(0).subject());
            assertEquals("probed", byRoute(r).get("typed_binary_streaming").status());
            assertNoSecretIn(dir.resolve("out-wrongkeys"), wrongSecret);
        } finally {
            try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
                ch.execute("DROP NAMED COLLECTION IF EXISTS wrong_keys");
            }
        }
    }

    @Test
    void columnarModeRequiredBlocksTheStreamingRoutesWithTheirCode() {
        CertificationReport r = certify("required", manifest(TestEngines.newDatabase("req"), "named_collection",
            "dpone_stage").replace("columnar_fast_path:\n", "columnar_fast_path:\n          mode: required\n")
            .replace("order_by: [sale_id]", "order_by: [sale_id]\n    route: object_storage_pull_s3"),
            context(embeddedS3()), "preflight_only", dir.resolve("state-req"));
        Map<String, RouteDecision> d = byRoute(r);
        for (String route : List.of("typed_raw_streaming", "typed_binary_streaming")) {
            assertEquals("blocked", d.get(route).status(), route);
            assertEquals(List.of("manifest.route_excluded"), codes(d.get(route)), route);
            assertEquals("source.options.native_transfer.snapshot.columnar_fast_path.mode",
                d.get(route).blockers().get(0).subject());
        }
        for (String route : List.of("direct_push_columnar.chunked", "object_storage_pull_s3")) {
            assertEquals("probed", d.get(route).status(), () -> route + " " + d.get(route).blockers());
        }
    }

    /**
     * Within one process the object-storage probes are reused: a second run against the same ClickHouse, store,
     * credential, read access and spool records them as passed with the run that probed, without a sentinel; a
     * failed run forgets them, so the run after it probes again. The grouped pull loads every chunk (3 of 1,000 rows).
     */
    @Test
    void passedProbesAreReusedWithinAProcessUntilARunFails() throws Exception {
        String db = TestEngines.newDatabase("reuse");
        ConnectionContext ctx = context(embeddedS3());
        String yaml = manifest(db, "named_collection", "dpone_stage");
        var m = ManifestLoader.load(Manifests.write(dir.resolve("reuse.yaml"), yaml))
            .withTarget(new io.dpone.manifest.TableRef(db, "sales_reuse"), "object_storage_pull_s3");
        var tooBig = ManifestLoader.load(Manifests.write(dir.resolve("reuse-big.yaml"), yaml.replace(
            "strategy: {mode: full_refresh}", "strategy: {mode: full_refresh, max_source_bytes: 1000}")))
            .withTarget(new io.dpone.manifest.TableRef(db, "sales_reuse"), "object_storage_pull_s3");
        List<io.dpone.route.RunReport> runs = new java.util.ArrayList<>();
        try (io.dpone.camel.DponeCamel camel = io.dpone.camel.DponeCamel.start(null, false)) {
            var runner = new io.dpone.route.FullRefreshRunner(camel, ctx, dir.resolve("state-reuse"));
            runs.add(runner.run(m, "reuse-1", io.dpone.route.ProgressListener.NONE));
            runs.add(runner.run(m, "reuse-2", io.dpone.route.ProgressListener.NONE));
            runs.add(runner.run(tooBig, "reuse-3", io.dpone.route.ProgressListener.NONE));
            runs.add(runner.run(m, "reuse-4", io.dpone.route.ProgressListener.NONE));
        }
        for (int i : List.of(0, 1, 3)) {
            io.dpone.route.RunReport r = runs.get(i);
            assertTrue(r.passed(), () -> r.runId() + " " + r.blockers());
            assertEquals(3_000, r.loadedRows(), r.runId());
        }
        assertEquals(List.of("source.max_source_bytes_exceeded"), runs.get(2).blockers().stream().map(Blocker::code)
            .toList());
        List<String> probed = List.of("parquet_writer", "runtime_write", "named_collection", "clickhouse_read",
            "runtime_delete");
        for (int i : List.of(0, 3)) {
            for (io.dpone.route.ProbeResult p : runs.get(i).probes()) {
                if (probed.contains(p.probe())) {
                    assertEquals("passed", p.status(), p.toString());
                    assertEquals(null, p.message(), "probed afresh: " + p);
                }
            }
        }
        for (int i : List.of(1, 2)) {
            List<io.dpone.route.ProbeResult> probes = runs.get(i).probes();
            assertEquals(runs.get(0).probes().stream().map(io.dpone.route.ProbeResult::probe).toList(),
                probes.stream().map(io.dpone.route.ProbeResult::probe).toList());
            for (io.dpone.route.ProbeResult p : probes) {
                if (probed.contains(p.probe())) {
                    assertEquals("passed", p.status(), p.toString());
                    assertTrue(p.message().startsWith("reused: passed for run reuse-1 "), p.toString());
                    assertEquals(0, p.durationMs());
                }
            }
        }
    }

    /**
     * use_cluster_function on the s3Cluster route, where the cluster is missing (the embedded engine has none): always
     * blocks it, auto pulls with s3() with a warning and a failed non-blocking cluster probe, never pulls with s3().
     */
    @Test
    void useClusterFunctionDecidesTheS3ClusterRoutesPullWhenTheClusterIsMissing() throws Exception {
        String db = TestEngines.newDatabase("ucf");
        ConnectionContext ctx = context(embeddedS3());
        Map<String, io.dpone.route.RunReport> runs = new HashMap<>();
        try (io.dpone.camel.DponeCamel camel = io.dpone.camel.DponeCamel.start(null, false)) {
            for (String policy : List.of("always", "auto", "never")) {
                Path file = Manifests.write(dir.resolve("ucf-" + policy + ".yaml"), manifest(db, "named_collection",
                    "dpone_stage").replace("use_cluster_function: always", "use_cluster_function: " + policy));
                var m = ManifestLoader.load(file).withTarget(new io.dpone.manifest.TableRef(db, "sales_" + policy),
                    "object_storage_pull_s3cluster");
                runs.put(policy, new io.dpone.route.FullRefreshRunner(camel, ctx, dir.resolve("state-ucf"))
                    .run(m, "ucf-" + policy, io.dpone.route.ProgressListener.NONE));
            }
        }
        assertEquals(List.of("sink.cluster_pull_unsupported"), runs.get("always").blockers().stream()
            .map(Blocker::code).toList());
        for (String policy : List.of("auto", "never")) {
            io.dpone.route.RunReport r = runs.get(policy);
            assertTrue(r.passed(), () -> policy + " " + r.blockers());
            assertEquals(3_000, r.loadedRows(), policy);
            assertTrue(r.notes().stream().anyMatch(n -> n.startsWith("pulled with s3() instead of s3Cluster()")),
                () -> policy + " " + r.notes());
            var cluster = r.probes().stream().filter(p -> p.probe().equals("cluster")).findFirst().orElseThrow();
            assertEquals(policy.equals("auto") ? "failed" : "skipped", cluster.status(), policy);
            assertEquals("passed", r.probes().stream().filter(p -> p.probe().equals("clickhouse_read")).findFirst()
                .orElseThrow().status(), policy);
        }

        CertificationReport pre = certify("ucf-pre", manifest(TestEngines.newDatabase("ucfp"), "named_collection",
            "dpone_stage").replace("use_cluster_function: always", "use_cluster_function: auto"),
            ctx, "preflight_only", dir.resolve("state-ucf-pre"));
        assertEquals("probed", byRoute(pre).get("object_storage_pull_s3cluster").status());
        assertTrue(pre.warnings().stream().anyMatch(w -> w.startsWith("object_storage_pull_s3cluster: probe cluster "
            + "failed without blocking the route")), pre.warnings()::toString);
    }

    /**
     * preflight.require_* false makes the runtime write and ClickHouse read probes non-blocking: a store ClickHouse
     * cannot reach no longer blocks the route; a writer that cannot put no longer fails the probe, but the route still
     * needs it to clear its prefix.
     */
    @Test
    void preflightRequirementsSwitchedOffDoNotBlockTheRoute() throws Exception {
        String noRequirements = "\n            preflight: {require_runtime_write: false, "
            + "require_clickhouse_read: false}";
        CertificationReport put = certify("noput", manifest(TestEngines.newDatabase("noput"), "non_production_inline",
            null).replace("clickhouse_read_access: {mode: non_production_inline}",
            "clickhouse_read_access: {mode: non_production_inline}" + noRequirements),
            context(externalS3("s3-wrong", externalS3.endpoint())), "preflight_only", dir.resolve("state-noput"));
        RouteDecision noPut = byRoute(put).get("object_storage_pull_s3");
        assertEquals(List.of("storage.runtime_put_denied"), codes(noPut));
        assertTrue(noPut.blockers().get(0).message().contains("under the run prefix"), "not the probe: "
            + noPut.blockers());
        assertTrue(Files.readString(dir.resolve("out-noput").resolve("route_decisions.jsonl")).contains(
            "not blocking: preflight.require_runtime_write is false"));
        CertificationReport read = certify("noread", manifest(TestEngines.newDatabase("noread"),
            "non_production_inline", null).replace("clickhouse_read_access: {mode: non_production_inline}",
            "clickhouse_read_access: {mode: non_production_inline}" + noRequirements),
            context(externalS3("s3-secret", "http://127.0.0.1:9")), "preflight_only", dir.resolve("state-noread"));
        assertEquals("probed", byRoute(read).get("object_storage_pull_s3").status(),
            () -> byRoute(read).get("object_storage_pull_s3").blockers().toString());
    }

    @Test
    void wrongWriterSecretIsRuntimePutDeniedAndNeverPrinted() throws Exception {
        CertificationReport r = certify("put", manifest(TestEngines.newDatabase("put"), "non_production_inline", null),
            context(externalS3("s3-wrong", externalS3.endpoint())), "preflight_only", dir.resolve("state-put"));
        assertEquals(List.of("storage.runtime_put_denied"), codes(byRoute(r).get("object_storage_pull_s3")));
        assertNoSecretIn(dir.resolve("out-put"), "not-the-secret-key-00000000000000000000");
    }

    @Test
    void unreachableStoreForClickHouseIsParquetReadUnsupported() throws Exception {
        CertificationReport r = certify("read", manifest(TestEngines.newDatabase("read"), "non_production_inline", null),
            context(externalS3("s3-secret", "http://127.0.0.1:9")), "preflight_only", dir.resolve("state-read"));
        assertEquals(List.of("format.parquet_read_unsupported"), codes(byRoute(r).get("object_storage_pull_s3")));
        assertNoSecretIn(dir.resolve("out-read"), planted);
    }

    @Test
    void unwritableSpoolIsColumnarWriterMissing() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("state-file"), "a file where the state directory should be");
        CertificationReport r = certify("writer", manifest(TestEngines.newDatabase("writer"), "named_collection",
            "dpone_stage"), context(embeddedS3()), "preflight_only", notADirectory);
        assertTrue(codes(byRoute(r).get("object_storage_pull_s3")).contains("source.columnar_writer_missing"),
            () -> byRoute(r).get("object_storage_pull_s3").blockers().toString());
    }

    @Test
    void repetitionsAreAScenarioOptionAndABuiltInNameKeepsItsDefaults() {
        Path m = Manifests.write(dir.resolve("reps.yaml"), manifest("x", "named_collection", "dpone_stage")
            .replace("scenarios: {small_live: {repetitions: 2}}",
                "scenarios: {small_live: {repetitions: 1}, bench: {routes: [typed_binary_streaming]}, "
                    + "probe: {repetitions: 5}, preflight_only: {repetitions: 4}}"));
        var manifest = ManifestLoader.load(m);
        Scenario small = Scenario.resolve(manifest, "small_live");
        assertEquals(1, small.repetitions());
        assertEquals(Scenario.SMALL_LIVE_ROWS, small.rowLimit());
        assertEquals(Scenario.DEFAULT_ROUTES, small.routes());
        assertEquals(3, Scenario.resolve(manifest, "bench").repetitions());
        assertEquals(0, Scenario.resolve(manifest, "bench").rowLimit());
        assertEquals(5, Scenario.resolve(manifest, "probe").repetitions());
        Scenario pre = Scenario.resolve(manifest, "preflight_only");
        assertFalse(pre.readsSource());
        assertEquals(1, pre.repetitions(), "probes are not measured");
    }

    @Test
    void unknownScenarioIsATypedBlocker() {
        Path m = Manifests.write(dir.resolve("unknown.yaml"), manifest("x", "named_collection", "dpone_stage"));
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.dpone.error.DponeException.class,
            () -> Scenario.resolve(ManifestLoader.load(m), "no_such_scenario"));
        assertEquals("certify.scenario_unknown", e.blockers().get(0).code());
    }

    @Test
    void leftoverStagingTableOrObjectFailsTheCleanupAudit() {
        String db = TestEngines.newDatabase("audit");
        Path file = Manifests.write(dir.resolve("audit.yaml"), manifest(db, "named_collection", "dpone_stage"));
        var m = ManifestLoader.load(file).withTarget(new io.dpone.manifest.TableRef(db, "sales"), "object_storage_pull_s3");
        ConnectionContext ctx = context(embeddedS3());
        org.apache.camel.Processor noop = exchange -> { };
        for (String skipped : List.of("deleteStagedObjects", "dropPredecessor")) {
            io.dpone.route.RunReport r;
            try (io.dpone.camel.DponeCamel camel = io.dpone.camel.DponeCamel.start(null, false, Map.of(skipped, noop))) {
                r = new io.dpone.route.FullRefreshRunner(camel, ctx, dir.resolve("state-audit"))
                    .run(m, "audit-" + skipped, io.dpone.route.ProgressListener.NONE);
            }
            assertFalse(r.passed(), skipped);
            assertEquals(List.of("quality.stale_artifacts"), r.blockers().stream().map(Blocker::code).toList(), skipped);
            var audit = r.gates().stream().filter(g -> g.gate().equals("cleanup_audit")).findFirst().orElseThrow();
            assertEquals("failed", audit.status());
            assertEquals(skipped.equals("deleteStagedObjects") ? 0 : 1,
                ((Number) audit.details().get("own_staging_tables_left")).intValue(), skipped);
            long objects = ((Number) audit.details().get("staged_objects_left")).longValue();
            assertTrue(skipped.equals("deleteStagedObjects") ? objects > 0 : objects == 0, skipped + ": " + objects);
        }
    }

    private static void assertNoSecretIn(Path out, String secret) throws Exception {
        for (String f : FILES) {
            String text = Files.readString(out.resolve(f));
            assertFalse(text.contains(secret), f);
            assertFalse(text.contains(externalS3.accessKey()), f);
            assertFalse(text.contains("127.0.0.1"), f);
            assertFalse(text.contains(dir.toString()), f);
        }
    }
}
