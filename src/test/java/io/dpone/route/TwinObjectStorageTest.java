package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.ManifestLoader;
import io.dpone.quality.GateResult;
import io.dpone.storage.EmbeddedS3;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The object-storage pulls into a ClickHouse server alias through the HTTP twin: dpone writes the Parquet chunks to
 * an S3 store (S3Proxy on loopback, a plain {@code s3} alias with its keys in a file), and the twin's engine pulls
 * them with {@code s3()} through a named collection created on the twin by SQL, as a platform team creates one on a
 * server. Every gate green and the run prefix cleaned up. A twin run, not a server run.
 */
@io.dpone.testing.ProcessTest
class TwinObjectStorageTest {
    private static final String COLLECTION = "twin_stage";
    private static EmbeddedS3 s3;
    private static Path secretFile;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        s3 = EmbeddedS3.inMemory();
        s3.createBucket("dpone-stage");
        secretFile = Files.writeString(Files.createTempFile("dpone-twin-s3", ""), s3.secretKey());
        try (ClickHouseEndpoint ch = TwinProcess.shared().endpoint()) {
            ch.execute("DROP NAMED COLLECTION IF EXISTS " + ClickHouseSql.id(COLLECTION));
            ch.execute("CREATE NAMED COLLECTION " + ClickHouseSql.id(COLLECTION) + " AS access_key_id = "
                + ClickHouseSql.literal(s3.accessKey()) + ", secret_access_key = "
                + ClickHouseSql.literal(s3.secretKey()));
        }
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"object_storage_pull.chunked", "object_storage_pull.file", "object_storage_pull_s3"})
    void eachPullLoadsTheDemoTableIntoAServerAliasWithEveryGateGreen(String route) throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("twin_pull");
        TwinProcess twin = TwinProcess.shared();
        ConnectionContext ctx = ConnectionContext.of(Map.of(
            TestEngines.SOURCE, TestEngines.sourceEntry(h2),
            "clickhouse_server", twin.alias("clickhouse_server"),
            "s3_stage", new ContextEntry("s3_stage", ConnectionType.S3, s3.endpoint(), s3.accessKey(), null,
                secretFile.toString(), false, Map.of())), false);
        Path manifest = Files.writeString(dir.resolve("pull.batch.yaml"), """
            name: twin-pull
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: sales}
              options:
                fetch_size: 1000
                native_transfer:
                  snapshot:
                    columnar_fast_path:
                      chunk_rows: 1500
                      object_storage:
                        uri_prefix: s3://dpone-stage/twin/{run_id}/
                        runtime_access: {connection_type: context, connection_id: s3_stage}
                        clickhouse_read_access: {mode: named_collection, named_collection: %s}
                        preflight: {require_runtime_write: true, require_clickhouse_read: true}
            sink:
              type: clickhouse
              connection_ref: clickhouse_server
              table: {schema: %s, name: sales}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options: {lineage: false, route: %s, order_by: [sale_id]}
            quality:
              typed_hash: full
              distinct_columns: [sale_id, status]
            """.formatted(TestEngines.SOURCE, COLLECTION, db, db, route));
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             DponeCamel camel = DponeCamel.start(null, false);
             ClickHouseEndpoint ch = twin.endpoint()) {
            DemoSalesGenerator.seed(src, 5_000, 11);
            RunReport r = new FullRefreshRunner(camel, ctx, dir).run(ManifestLoader.load(manifest), "pull-1",
                ProgressListener.NONE);
            assertTrue(r.passed(), () -> route + ": " + r.blockers());
            for (GateResult g : r.gates()) {
                assertEquals("passed", g.status(), () -> route + " gate " + g.gate() + ": " + g);
            }
            assertEquals(List.of(List.of("5000")), ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "sales")));
            assertEquals(List.of(), s3.store("dpone-stage", io.dpone.storage.S3ObjectStore.Tuning.DEFAULTS)
                .list("twin/"), "the run prefix is cleaned up");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
