package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import io.dpone.testing.mssql.MssqlTwinProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code certify route-capabilities} with the source on the SQL Server twin through the real mssql-jdbc: the demo
 * table seeded through the driver ({@code DemoSalesGenerator}'s SQL Server branch), the probes and all seven routes
 * run, the six the embedded engine supports green with every row, {@code object_storage_pull_s3cluster} blocked for
 * its real cause. A twin run, not a server run (docs/testing.md).
 */
@io.dpone.testing.ProcessTest
class MssqlTwinCertificationTest {
    static MssqlTwinProcess twin;
    static Path passwordFile;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        twin = MssqlTwinProcess.start(dir.resolve("twin"));
        passwordFile = twin.passwordFile();
        try (Connection c = twin.connect()) {
            DemoSalesGenerator.seed(c, 3_000, 9);
        }
    }

    @AfterAll
    static void stop() {
        if (twin != null) {
            twin.close();
        }
    }

    @Test
    void everyRouteTheEmbeddedEngineSupportsIsGreenFromTheTwin() {
        String db = TestEngines.newDatabase("twin_cert");
        String yaml = """
            name: twin-cert
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
                        clickhouse_read_access: {mode: named_collection, named_collection: dpone_stage}
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
              scenarios: {small_live: {repetitions: 1}}
            """.formatted(db, db + "_cert");
        ConnectionContext ctx = ConnectionContext.of(Map.of(
            TestEngines.SOURCE, new ContextEntry(TestEngines.SOURCE, ConnectionType.MSSQL, twin.url(),
                MssqlTwinProcess.USER, null, passwordFile.toString(), false, Map.of()),
            TestEngines.CLICKHOUSE, new ContextEntry(TestEngines.CLICKHOUSE, ConnectionType.CLICKHOUSE, null, null,
                null, null, true, Map.of("path", TestEngines.clickHousePath().toString())),
            "s3_test", new ContextEntry("s3_test", ConnectionType.S3, null, null, null, null, true,
                Map.of("path", dir.resolve("embedded-s3").toString()))), false);
        Path m = Manifests.write(dir.resolve("twin-cert.yaml"), yaml);
        CertificationReport r = new Certification(ctx, dir.resolve("state")).run(ManifestLoader.load(m),
            Scenario.resolve(ManifestLoader.load(m), "small_live"), "twin-cert-1", dir.resolve("out"));
        Map<String, RouteDecision> d = r.routes().stream().collect(Collectors.toMap(RouteDecision::routeId, x -> x));
        for (String route : Scenario.DEFAULT_ROUTES.subList(0, 6)) {
            assertEquals("green", d.get(route).status(), () -> route + " " + d.get(route).blockers());
            assertEquals(3_000, d.get(route).rows());
        }
        assertEquals(List.of("sink.cluster_pull_unsupported"), d.get("object_storage_pull_s3cluster").blockers()
            .stream().map(Blocker::code).distinct().toList());
        assertNotNull(r.preferredRouteId());
        assertTrue(r.passed());
    }
}
