package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37: an edited route file cannot publish without evidence. A {@code typed_binary_streaming} replaced by one
 * {@code log} step, or the shipped route without its {@code quality_gates} step, loads as serve loads a route file;
 * the run does not pass, is refused typed ({@code run.gates_missing}, naming the gates), and the target is untouched.
 */
@io.dpone.testing.EngineTest
class GatelessRouteTest {
    @TempDir
    Path dir;

    @Test
    void aRouteThatOnlyLogsCannotPass() throws Exception {
        RunReport report = runThrough("""
            - route:
                id: typed_binary_streaming
                from:
                  uri: direct:typed_binary_streaming
                  steps:
                    - log:
                        id: typed_binary_streaming.only_log
                        message: "nothing"
            """);
        assertFalse(report.passed(), "a run whose gates never ran does not pass");
        Blocker missing = only(report, "run.gates_missing");
        assertEquals(GateEvidence.REQUIRED, missing.details().get("missing_gates"));
        assertTrue(report.blockers().stream().anyMatch(b -> b.code().equals("run.not_published")),
            report.blockers().toString());
    }

    @Test
    void aRouteWithoutTheGatesStepCannotPublish() throws Exception {
        // the shipped template of the streaming routes, typed_binary_streaming among them
        String shipped = Files.readString(Path.of("src/main/resources/routes/streaming_load.yaml"));
        String gates = """
                              - process:
                                  id: quality_gates
                                  ref: qualityGates
            """;
        assertTrue(shipped.contains(gates), "the shipped template has the gates step this test removes");
        // the template without the gates step, under its own id, instantiated as typed_binary_streaming only
        String template = shipped.substring(0, shipped.indexOf("\n# typed_raw_streaming:")).replace(gates, "")
            .replace("id: streaming_load\n", "id: streaming_load_gateless\n");
        RunReport report = runThrough(template);
        assertFalse(report.passed());
        Blocker missing = only(report, "run.gates_missing");
        assertEquals(GateEvidence.REQUIRED, missing.details().get("missing_gates"));
        assertEquals(0, report.gates().stream().filter(g -> g.gate().equals("row_count")).count());
    }

    @Test
    void theShippedRoutePassesWithEveryRequiredGate() throws Exception {
        RunReport report = runThrough(null);
        assertTrue(report.passed(), report.blockers().toString());
        List<String> ran = report.gates().stream().map(g -> g.gate()).toList();
        assertTrue(ran.containsAll(GateEvidence.REQUIRED), ran.toString());
    }

    private static Blocker only(RunReport report, String code) {
        List<Blocker> found = report.blockers().stream().filter(b -> b.code().equals(code)).toList();
        assertEquals(1, found.size(), report.blockers().toString());
        return found.get(0);
    }

    /** Runs 500 demo rows through {@code typed_binary_streaming} as {@code routeYaml} (null: the shipped route). */
    private RunReport runThrough(String routeYaml) throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("gl");
        try (Connection source = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse();
             DponeCamel camel = DponeCamel.start(null, true)) {
            DemoSalesGenerator.seed(source, 500, 5);
            if (routeYaml != null) {
                camel.context().getRouteController().stopRoute("typed_binary_streaming");
                camel.context().removeRoute("typed_binary_streaming"); // replaced by routeYaml's
                Path file = Files.writeString(dir.resolve("typed_binary_streaming.yaml"), routeYaml);
                PluginHelper.getRoutesLoader(camel.context()).updateRoutes(
                    List.of(ResourceHelper.resolveResource(camel.context(), "file:" + file.toAbsolutePath())));
                if (camel.context().getRoute("typed_binary_streaming") == null) { // routeYaml is a template
                    org.apache.camel.builder.TemplatedRouteBuilder.builder(camel.context(), "streaming_load_gateless")
                        .routeId("typed_binary_streaming").prefixId("typed_binary_streaming.")
                        .parameter("name", "typed_binary_streaming").parameter("format", "rowbinary").add();
                }
            }
            Path manifest = Manifests.write(dir.resolve("m.yaml"), """
                source:
                  type: mssql
                  connection_ref: %s
                  table: {schema: dbo, name: sales}
                sink:
                  type: clickhouse
                  connection_ref: %s
                  table: {schema: %s, name: sales}
                  strategy: {mode: full_refresh}
                  options: {route: typed_binary_streaming}
                """.formatted(TestEngines.SOURCE, TestEngines.CLICKHOUSE, db));
            RunReport report = new FullRefreshRunner(camel, TestEngines.context(h2), dir.resolve("state"))
                .run(ManifestLoader.load(manifest), "gateless-1", ProgressListener.NONE);
            boolean target = !ch.query("SELECT count() FROM system.tables WHERE database = '" + db
                + "' AND name = 'sales'").get(0).get(0).equals("0");
            assertEquals(report.passed(), target, "the target exists exactly when the run passed");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            return report;
        }
    }
}
