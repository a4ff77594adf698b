package io.dpone.cli;

import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplier;
import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplierTest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.testing.TestEngines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@io.dpone.testing.EngineTest
class MaterializeCommandTest {
    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new CommandLine(new MaterializeCommand(() -> TestEngines.context(TestEngines.newH2Url()),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)))
            .setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8)).execute(args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void materializesThroughTheConnectionAliasAndWritesTheReports() throws Exception {
        String db = TestEngines.newDatabase("cdc_cli_log");
        String serving = TestEngines.newDatabase("cdc_cli_serving");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(), dir.resolve("spool"))
                .apply(ClickHouseCdcSinkApplierTest.STREAM, new CdcApplyBatch("b1", "run-1", List.of(
                    new CdcEvent(CdcOperation.insert, "0x10", 0, "dbo", "orders", Map.of("order_id", 1), Map.of()),
                    new CdcEvent(CdcOperation.insert, "0x11", 0, "dbo", "orders", Map.of("order_id", 2), Map.of()),
                    new CdcEvent(CdcOperation.delete, "0x12", 0, "dbo", "orders", Map.of("order_id", 2), Map.of()))));
        }
        Run r = run("--cdc-dataset", db + ".orders_cdc", "--target-dataset", serving + ".orders_current",
            "--unique-key", "order_id", "--sink-connection-id", TestEngines.CLICKHOUSE, "--delete-mode",
            "exclude_deleted", "--output-dir", dir.resolve("out").toString(), "--format", "json");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals("dpone.cdc_materialization.v1", doc.path("schema").asText());
        assertEquals(1, doc.path("keys_out").asLong());
        assertEquals(1, doc.path("deletes_applied").asLong());
        assertTrue(Files.exists(dir.resolve("out/cdc_materialization.json")));
        assertTrue(Files.exists(dir.resolve("out/cdc_materialization.md")));
        assertTrue(!r.out().contains(dir.toAbsolutePath().toString()), "no local path in the report");

        Run red = run("--cdc-dataset", db + ".missing", "--target-dataset", serving + ".x", "--unique-key",
            "order_id", "--sink-connection-id", TestEngines.CLICKHOUSE, "--output-dir", dir.resolve("red").toString(),
            "--format", "json");
        assertEquals(1, red.exit());
        assertEquals("", red.out());
        assertEquals(CdcMaterializer.LOG_MISSING, new ObjectMapper().readTree(red.err()).path("blockers").get(0)
            .path("code").asText());

        assertEquals(2, run("--cdc-dataset", db + ".orders_cdc").exit());
        assertEquals(2, run("--cdc-dataset", "a.b", "--target-dataset", "c.d", "--unique-key", "k",
            "--sink-connection-id", TestEngines.CLICKHOUSE, "--delete-mode", "hard").exit());
    }

    /** Without --output-dir the reports go under $DPONE_HOME (the tests' own, target/test-home), never to ".". */
    @Test
    void withoutOutputDirTheReportsGoUnderDponeHomeNotTheCurrentDirectory() throws Exception {
        String db = TestEngines.newDatabase("cdc_cli_default_log");
        String serving = TestEngines.newDatabase("cdc_cli_default_serving");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(), dir.resolve("spool"))
                .apply(ClickHouseCdcSinkApplierTest.STREAM, new CdcApplyBatch("b1", "run-1", List.of(
                    new CdcEvent(CdcOperation.insert, "0x10", 0, "dbo", "orders", Map.of("order_id", 1), Map.of()))));
        }
        Path expected = io.dpone.connect.EmbeddedDefaults.home().resolve("reports/cdc-materialize-clickhouse")
            .resolve(serving + ".orders_current");
        Run r = run("--cdc-dataset", db + ".orders_cdc", "--target-dataset", serving + ".orders_current",
            "--unique-key", "order_id", "--sink-connection-id", TestEngines.CLICKHOUSE, "--format", "json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.exists(expected.resolve(CdcMaterializer.JSON_FILE)), expected.toString());
        assertTrue(Files.exists(expected.resolve(CdcMaterializer.MD_FILE)));
        assertTrue(!Files.exists(Path.of(CdcMaterializer.JSON_FILE)), "nothing in the current directory");
        assertEquals("x_y", MaterializeCommand.defaultOutputDir("x/y").getFileName().toString());
        assertEquals("unnamed", MaterializeCommand.defaultOutputDir("..").getFileName().toString());
    }
}
