package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The certification block's keys: where safe targets go, and which routes and rows a declared scenario measures. */
class CertificationKeysTest {
    @TempDir
    Path dir;

    private io.dpone.manifest.BatchManifest load(String certification) {
        return ManifestLoader.load(Manifests.write(dir.resolve("m.yaml"), """
            source: {type: mssql, connection_ref: mssql_test, table: {schema: dbo, name: sales}}
            sink:
              type: clickhouse
              connection_ref: clickhouse_test
              table: {schema: analytics, name: sales}
              strategy: {mode: full_refresh}
            """ + certification));
    }

    @Test
    void targetSchemaMovesTheSafeTargetsAndScenarioRoutesAndRowLimitShapeTheMatrix() {
        assertEquals("analytics.sales__cert_object_storage_pull_file",
            RouteCertifier.safeTarget(load(""), "object_storage_pull.file").toString());
        var m = load("""
            certification:
              target_schema: cert_zone
              scenarios:
                quick: {routes: [typed_raw_streaming, object_storage_pull_s3], row_limit: 500}
            """);
        assertEquals("cert_zone.sales__cert_object_storage_pull_file",
            RouteCertifier.safeTarget(m, "object_storage_pull.file").toString());
        Scenario quick = Scenario.resolve(m, "quick");
        assertEquals(List.of("typed_raw_streaming", "object_storage_pull_s3"), quick.routes());
        assertEquals(500, quick.rowLimit());
        assertEquals(Scenario.DEFAULT_ROUTES, Scenario.resolve(load("""
            certification:
              scenarios: {quick: {repetitions: 1}}
            """), "quick").routes());
    }
}
