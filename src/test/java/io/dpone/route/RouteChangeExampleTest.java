package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.ManifestLoader;
import io.dpone.serve.RouteDirectory;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.apache.camel.api.management.ManagedCamelContext;
import org.apache.camel.api.management.mbean.ManagedProcessorMBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The route-change example in docs/examples/routes (docs/architecture.md "Changing a route") loads the way
 * {@code dpone serve} loads a routes directory, replaces the shipped route of its id, and runs: its added step runs
 * once per run, after the swap, and the run still passes every gate.
 */
@io.dpone.testing.EngineTest
class RouteChangeExampleTest {
    @TempDir
    Path dir;

    @Test
    void theDocumentedRouteChangeReplacesTheShippedRouteAndRuns() throws Exception {
        Path routes = Files.createDirectories(dir.resolve("routes"));
        Files.copy(Path.of("docs/examples/routes/typed_binary_streaming-override.yaml"),
            routes.resolve("typed_binary_streaming-override.yaml"));
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("rce");
        try (Connection source = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse();
             DponeCamel camel = DponeCamel.start(null, true)) {
            DemoSalesGenerator.seed(source, 2_000, 5);
            RouteDirectory directory = new RouteDirectory(camel.context(), routes);
            assertEquals(1, directory.scan());
            assertEquals(List.of(), directory.rejected());
            assertTrue(camel.context().getRoute("typed_binary_streaming").getSourceLocation()
                .contains("typed_binary_streaming-override.yaml"), "the example replaced the shipped route");

            Path manifest = Manifests.write(dir.resolve("m.yaml"), """
                source:
                  type: mssql
                  connection_ref: %s
                  table: {schema: dbo, name: sales}
                  options: {chunk_rows: 700}
                sink:
                  type: clickhouse
                  connection_ref: %s
                  table: {schema: %s, name: sales}
                  strategy: {mode: full_refresh}
                  options: {route: typed_binary_streaming}
                """.formatted(TestEngines.SOURCE, TestEngines.CLICKHOUSE, db));
            RunReport report = new FullRefreshRunner(camel, TestEngines.context(h2), dir.resolve("state"))
                .run(ManifestLoader.load(manifest), "example-1", ProgressListener.NONE);

            assertTrue(report.passed(), report.blockers().toString());
            assertEquals(2_000, report.loadedRows());
            ManagedProcessorMBean added = camel.context().getCamelContextExtension()
                .getContextPlugin(ManagedCamelContext.class).getManagedProcessor("typed_binary_streaming.log_published");
            assertEquals(1, added.getExchangesCompleted(), "the added step ran once, after the swap");
            assertEquals("2000", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "sales")).get(0).get(0));
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
