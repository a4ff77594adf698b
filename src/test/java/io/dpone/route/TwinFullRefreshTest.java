package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.quality.GateResult;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import org.apache.camel.Processor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Full refreshes into a ClickHouse server alias (client-v2 over HTTP, {@code input()} inserts, the gates' queries on
 * the server) through the HTTP twin: each route a server supports loads the demo table with every gate green, and a
 * planted defect turns its gate red with nothing published. A twin run, not a server run (docs/testing.md).
 */
@io.dpone.testing.ProcessTest
class TwinFullRefreshTest {
    private static final String SERVER = "clickhouse_server";
    private static TwinProcess twin;
    private static Path passwordFile;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        Path home = Files.createTempDirectory("dpone-twin-route-");
        twin = TwinProcess.start(home.resolve("twin"));
        passwordFile = Files.writeString(home.resolve("password"), twin.password());
    }

    @AfterAll
    static void stop() throws Exception {
        if (twin != null) {
            twin.close();
        }
    }

    private static ConnectionContext context(String h2) {
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, TestEngines.sourceEntry(h2),
            SERVER, new ContextEntry(SERVER, ConnectionType.CLICKHOUSE, twin.url(), TwinProcess.USER, null,
                passwordFile.toString(), false, Map.of())), false);
    }

    private BatchManifest manifest(String db, String route) throws Exception {
        Path file = Manifests.fullRefresh(dir, "sales", db, "route: " + route + "\norder_by: [sale_id]");
        Files.writeString(file, Files.readString(file).replace("connection_ref: " + TestEngines.CLICKHOUSE,
            "connection_ref: " + SERVER) + "quality:\n  typed_hash: full\n  distinct_columns: [sale_id, status]\n");
        return ManifestLoader.load(file);
    }

    private static ClickHouseEndpoint server(ConnectionContext ctx) {
        return ClickHouseEndpoints.open(ctx.resolve(SERVER, ConnectionType.CLICKHOUSE, "test"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"typed_raw_streaming", "typed_binary_streaming", "direct_push_columnar.chunked"})
    void eachServerRouteLoadsTheDemoTableWithEveryGateGreen(String route) throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("twin_route");
        ConnectionContext ctx = context(h2);
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             DponeCamel camel = DponeCamel.start(null, false);
             ClickHouseEndpoint ch = server(ctx)) {
            DemoSalesGenerator.seed(src, 5_000, 7);
            RunReport r = new FullRefreshRunner(camel, ctx, dir).run(manifest(db, route), "twin-1",
                ProgressListener.NONE);
            assertTrue(r.passed(), () -> route + ": " + r.blockers());
            assertEquals(5_000, r.loadedRows());
            assertTrue(r.gates().size() >= 8, r.gates().toString());
            for (GateResult g : r.gates()) {
                assertEquals("passed", g.status(), () -> route + " gate " + g.gate() + ": " + g);
            }
            assertEquals(List.of(List.of("5000", "twin-1")), ch.query("SELECT count(), any(__dpone__run_id) FROM "
                + ClickHouseSql.table(db, "sales")));
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"typed_raw_streaming", "typed_binary_streaming", "direct_push_columnar.chunked"})
    void everyMappedTypeMakesTheTripThroughEachServerRoute(String route) throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("twin_types");
        ConnectionContext ctx = context(h2);
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             DponeCamel camel = DponeCamel.start(null, false);
             ClickHouseEndpoint ch = server(ctx)) {
            io.dpone.source.TypeRoundTripTest.createAllTypes(src);
            Path file = Manifests.fullRefresh(dir, "alltypes", db, "route: " + route);
            Files.writeString(file, Files.readString(file).replace("connection_ref: " + TestEngines.CLICKHOUSE,
                "connection_ref: " + SERVER) + "quality:\n  typed_hash: full\n  distinct_columns: [id, b, g]\n");
            RunReport r = new FullRefreshRunner(camel, ctx, dir).run(ManifestLoader.load(file), "types-1",
                ProgressListener.NONE);
            assertTrue(r.passed(), () -> route + ": " + r.blockers());
            assertEquals(11, r.loadedRows());
            for (GateResult g : r.gates()) {
                assertEquals("passed", g.status(), () -> route + " gate " + g.gate() + ": " + g);
            }
            assertEquals(List.of(List.of("Decimal(38, 10)", "DateTime64(7, 'UTC')", "Date32", "UUID", "Bool")),
                ch.query("SELECT any(toTypeName(assumeNotNull(d38))), any(toTypeName(assumeNotNull(ts))), "
                    + "any(toTypeName(assumeNotNull(dt))), any(toTypeName(assumeNotNull(g))), "
                    + "any(toTypeName(assumeNotNull(b))) FROM " + ClickHouseSql.table(db, "alltypes")));
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "one changed value|ALTER TABLE %s UPDATE status = 'tampered' WHERE sale_id = 11|quality.typed_hash_mismatch",
        "one extra NULL|ALTER TABLE %s UPDATE note = NULL WHERE sale_id = (SELECT min(sale_id) FROM %s WHERE note IS NOT NULL)|quality.null_count_mismatch",
        "one dropped row|ALTER TABLE %s DELETE WHERE sale_id = 9|quality.row_count_mismatch"})
    void aPlantedDefectIsRedAndNothingIsPublished(String defect, String tamperSql, String code) throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("twin_gates");
        ConnectionContext ctx = context(h2);
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = server(ctx)) {
            DemoSalesGenerator.seed(src, 2_000, 5);
            BatchManifest m = manifest(db, "typed_binary_streaming");
            try (DponeCamel camel = DponeCamel.start(null, false)) {
                assertTrue(new FullRefreshRunner(camel, ctx, dir).run(m, "good", ProgressListener.NONE).passed());
            }
            QualityGateProcessor gates = new QualityGateProcessor();
            Processor tamperThenGate = exchange -> {
                TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
                String staging = ClickHouseSql.table(db, run.stagingTable());
                run.clickhouse().execute("SYSTEM START MERGES " + staging);
                run.clickhouse().execute(tamperSql.replace("%s", staging) + " SETTINGS mutations_sync = 2");
                gates.process(exchange);
            };
            RunReport bad;
            try (DponeCamel camel = DponeCamel.start(null, false, Map.of("qualityGates", tamperThenGate))) {
                bad = new FullRefreshRunner(camel, ctx, dir).run(m, "bad", ProgressListener.NONE);
            }
            assertFalse(bad.passed(), defect);
            assertTrue(bad.blockers().stream().map(Blocker::code).toList().contains(code),
                () -> defect + ": " + bad.blockers());
            assertEquals(List.of(List.of("2000", "good")), ch.query("SELECT count(), any(__dpone__run_id) FROM "
                + ClickHouseSql.table(db, "sales")), "the target keeps the published generation");
            assertEquals(List.of(List.of("sales")), ch.query("SELECT name FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db)), "no staging table is left");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
