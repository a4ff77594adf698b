package io.dpone.cdc;

import static io.dpone.cdc.CdcFixtures.assertNoLocalPath;
import static io.dpone.cdc.CdcFixtures.checkpointToken;
import static io.dpone.cdc.CdcFixtures.codes;
import static io.dpone.cdc.CdcFixtures.exampleDir;
import static io.dpone.cdc.CdcFixtures.json;
import static io.dpone.cdc.CdcFixtures.read;
import static io.dpone.cdc.CdcFixtures.sinkRows;
import static io.dpone.cdc.CdcFixtures.stage;
import static io.dpone.cdc.CdcFixtures.subjects;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.testing.CliRun;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spec's local example through the CLI: artifacts, re-runs, continuation, compound keys, foreign checkpoint. */
class CdcLocalCliTest {
    @TempDir
    Path dir;

    @Test
    void shippedExampleIsTheTestedFixture() throws Exception {
        assertArrayEquals(Files.readAllBytes(Path.of("examples/cdc/orders/events.json")),
            Files.readAllBytes(CdcFixtures.FIXTURES.resolve("orders/events.json")));
    }

    @Test
    void specExampleWritesEveryArtifact() throws Exception {
        stage(dir, "orders/events.json");
        CliRun run = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("", run.stderr());
        Path out = exampleDir(dir);
        JsonNode doc = json(run.stdout());
        assertEquals(Files.readString(out.resolve("cdc_runtime_run.json")), run.stdout());
        assertEquals("dpone.cdc_runtime_run.v1", doc.path("schema").asText());
        assertTrue(doc.path("passed").asBoolean());
        assertTrue(doc.path("committed").asBoolean());
        assertEquals("orders-cdc", doc.path("stream").path("pipeline_name").asText());
        assertEquals("analytics.orders", doc.path("stream").path("target_dataset").asText());
        assertTrue(doc.path("offset_before").isNull());
        assertEquals("0x14", doc.path("offset_after").path("position").asText());
        assertEquals("0x14", doc.path("high_watermark").asText());
        assertEquals(7, doc.path("counts").path("read").asInt());
        assertEquals(7, doc.path("counts").path("applied").asInt());
        assertTrue(doc.path("sink_receipt").path("durable").asBoolean());
        assertEquals(0, doc.path("blockers").size());
        assertTrue(Files.readString(out.resolve("cdc_runtime_run.md")).contains("**passed**"));
        assertEquals("dpone.cdc_sink_receipt.v1", read(out.resolve("sink/cdc_sink_receipt.json")).path("schema").asText());
        assertEquals("0x14", checkpointToken(dir));
        assertEquals("dpone.cdc_checkpoint.v1", read(out.resolve("checkpoint.json")).path("schema").asText());

        List<JsonNode> rows = sinkRows(dir);
        assertEquals(7, rows.size());
        BigInteger previous = BigInteger.valueOf(-1);
        for (JsonNode r : rows) {
            BigInteger version = new BigInteger(r.path("dpone_cdc_version").asText());
            assertTrue(version.compareTo(previous) > 0, "versions grow with (position, sequence)");
            previous = version;
            assertEquals(CdcHashes.sha256Hex("[" + r.path("order_id").asText() + "]"),
                r.path("dpone_cdc_unique_key_hash").asText());
            assertEquals(doc.path("run_id").asText(), r.path("dpone_cdc_run_id").asText());
        }
        assertEquals("0xf", rows.get(0).path("dpone_cdc_position").asText(), "0xf sorts before 0x10 numerically");
        assertEquals("120.50", rows.get(0).path("amount").decimalValue().toPlainString(), "decimals keep their scale");
        assertEquals(List.of("delete", "insert"), List.of(rows.get(5).path("dpone_cdc_operation").asText(),
            rows.get(6).path("dpone_cdc_operation").asText()), "a key change is a delete and an insert at one LSN");
        assertNoLocalPath(run, dir);
    }

    @Test
    void rerunAppliesNothingTwiceAndTheNextBatchContinues() {
        stage(dir, "orders/events.json");
        assertEquals(0, CdcCli.run(CdcCli.specExample(dir)).exitCode());
        CliRun again = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(0, again.exitCode(), again.stderr());
        JsonNode doc = json(again.stdout());
        assertEquals(7, doc.path("counts").path("replayed").asInt());
        assertEquals(0, doc.path("counts").path("applied").asInt());
        assertEquals(7, sinkRows(dir).size());
        assertEquals("0x14", checkpointToken(dir));

        stage(dir, "orders/events_batch2.json");
        CliRun next = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(0, next.exitCode(), next.stderr());
        JsonNode n = json(next.stdout());
        assertEquals("0x14", n.path("offset_before").path("position").asText());
        assertEquals("0x100", n.path("offset_after").path("position").asText());
        assertEquals(3, n.path("counts").path("applied").asInt());
        assertEquals(0, n.path("counts").path("replayed").asInt(), "0x15 and 0x1a are above 0x14 as numbers");
        assertEquals("0x100", checkpointToken(dir));
        List<JsonNode> rows = sinkRows(dir);
        assertEquals(10, rows.size());
        Set<String> ids = new HashSet<>();
        rows.forEach(r -> ids.add(r.path("dpone_cdc_event_id").asText()));
        assertEquals(10, ids.size());

        CliRun replay = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(0, replay.exitCode(), replay.stderr());
        assertEquals(3, json(replay.stdout()).path("counts").path("replayed").asInt());
        assertEquals(10, sinkRows(dir).size());
        assertNoLocalPath(replay, dir);
    }

    @Test
    void compoundKeysFromRepeatedUniqueKey() {
        CdcFixtures.copy(CdcFixtures.FIXTURES.resolve("compound/events.json"), exampleDir(dir).resolve("events.json"));
        List<String> args = new ArrayList<>(CdcCli.specExample(dir, "--unique-key", "line_no"));
        args.set(args.indexOf("orders"), "order_lines");
        CliRun run = CdcCli.run(args);
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode doc = json(run.stdout());
        assertEquals(List.of("order_id", "line_no"), List.of(doc.path("stream").path("unique_keys").get(0).asText(),
            doc.path("stream").path("unique_keys").get(1).asText()));
        List<JsonNode> rows = sinkRows(dir);
        assertEquals(3, rows.size());
        assertEquals(CdcHashes.sha256Hex("[1,1]"), rows.get(0).path("dpone_cdc_unique_key_hash").asText());
        assertEquals(CdcHashes.sha256Hex("[1,2]"), rows.get(1).path("dpone_cdc_unique_key_hash").asText());
        assertEquals(rows.get(1).path("dpone_cdc_unique_key_hash"), rows.get(2).path("dpone_cdc_unique_key_hash"));
        assertNotEquals(rows.get(0).path("dpone_cdc_unique_key_hash"), rows.get(1).path("dpone_cdc_unique_key_hash"));

        List<String> reordered = new ArrayList<>(args);
        reordered.set(reordered.indexOf("line_no"), "sku");
        CliRun other = CdcCli.run(reordered);
        assertEquals(1, other.exitCode(), "unique keys are part of the stream identity");
        assertEquals(List.of(CdcBlockers.CHECKPOINT_STREAM_MISMATCH), codes(json(other.stderr())));
    }

    @Test
    void checkpointOfAnotherStreamIsRefusedAndLeftAlone() {
        stage(dir, "orders/events.json");
        assertEquals(0, CdcCli.run(CdcCli.specExample(dir)).exitCode());
        Path checkpoint = exampleDir(dir).resolve("checkpoint.json");
        byte[] before = CdcFixtures.bytes(checkpoint);
        stage(dir, "orders/events_batch2.json");
        List<String> args = new ArrayList<>(CdcCli.specExample(dir));
        args.set(args.indexOf("orders-cdc"), "orders-cdc-v2");
        CliRun run = CdcCli.run(args);
        assertEquals(1, run.exitCode());
        assertEquals("", run.stdout());
        JsonNode doc = json(run.stderr());
        assertEquals(List.of(CdcBlockers.CHECKPOINT_STREAM_MISMATCH), codes(doc));
        assertEquals(List.of("--checkpoint-json"), subjects(doc));
        assertFalse(doc.path("committed").asBoolean());
        assertArrayEquals(before, CdcFixtures.bytes(checkpoint));
        assertEquals(7, sinkRows(dir).size());
        assertEquals(doc, read(exampleDir(dir).resolve("cdc_runtime_run.json")));
        assertNoLocalPath(run, dir);
    }

    @Test
    void textFormatSummarises() {
        stage(dir, "orders/events.json");
        List<String> args = new ArrayList<>(CdcCli.specExample(dir));
        args.set(args.indexOf("json"), "text");
        CliRun run = CdcCli.run(args);
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("passed: dbo.orders -> analytics.orders"), run.stdout());
        assertTrue(run.stdout().contains("offset 0x14 committed"), run.stdout());
    }

    @Test
    void liveModeNeedsKnownAliasesAndALiveBackendAndAnUnknownSinkAliasIsRefused() {
        CliRun live = CdcCli.run("ops", "cdc-runtime-run", "--mode", "live", "--source", "mssql", "--sink",
            "clickhouse", "--backend", "mssql_cdc", "--pipeline-name", "orders-cdc", "--source-schema", "dbo",
            "--source-table", "orders", "--target-dataset", "analytics.orders_cdc", "--unique-key", "order_id",
            "--source-connection-id", "mssql-prod", "--sink-connection-id", "clickhouse-prod",
            "--credentials-source", "env", "--format", "json");
        assertEquals(1, live.exitCode());
        assertEquals("", live.stdout());
        assertEquals(List.of("connection.ref_unknown", "connection.ref_unknown"), codes(json(live.stderr())));
        assertEquals(List.of("--source-connection-id", "--sink-connection-id"), subjects(json(live.stderr())));
        CliRun other = CdcCli.run("ops", "cdc-runtime-run", "--mode", "live", "--source", "mssql", "--sink",
            "clickhouse", "--backend", "debezium", "--pipeline-name", "orders-cdc", "--source-schema", "dbo",
            "--source-table", "orders", "--target-dataset", "analytics.orders_cdc", "--unique-key", "order_id",
            "--format", "json");
        assertEquals(1, other.exitCode());
        assertEquals(List.of(CdcBlockers.MODE_UNSUPPORTED, CdcBlockers.INVALID_ARGUMENT,
            CdcBlockers.INVALID_ARGUMENT), codes(json(other.stderr())));

        stage(dir, "orders/events.json");
        CliRun local = CdcCli.run(CdcCli.specExample(dir, "--sink-connection-id", "clickhouse-prod"));
        assertEquals(1, local.exitCode());
        assertEquals(List.of("connection.ref_unknown"), codes(json(local.stderr())));
        assertEquals(List.of("--sink-connection-id"), subjects(json(local.stderr())));
        assertFalse(Files.exists(exampleDir(dir).resolve("cdc_runtime_run.json")), "rejected before any side effect");
    }

    @Test
    void invalidValuesAreTypedBeforeAnySideEffect() {
        stage(dir, "orders/events.json");
        List<String> args = new ArrayList<>(CdcCli.specExample(dir));
        args.set(args.indexOf("orders"), "orders;drop");
        args.set(args.indexOf("analytics.orders"), "analytics");
        args.set(args.indexOf("order_id"), "order id");
        CliRun run = CdcCli.run(args);
        assertEquals(1, run.exitCode());
        assertEquals("", run.stdout());
        JsonNode doc = json(run.stderr());
        assertEquals(List.of(CdcBlockers.INVALID_ARGUMENT, CdcBlockers.INVALID_ARGUMENT, CdcBlockers.INVALID_ARGUMENT),
            codes(doc));
        assertEquals(List.of("--source-table", "--target-dataset", "--unique-key[0]"), subjects(doc));
        assertFalse(Files.exists(exampleDir(dir).resolve("sink")));
        assertNoLocalPath(run, dir);
    }

    @Test
    void missingLocalInputIsAUsageError() {
        List<String> args = new ArrayList<>(CdcCli.specExample(dir));
        int i = args.indexOf("--events-json");
        args.remove(i + 1);
        args.remove(i);
        CliRun run = CdcCli.run(args);
        assertEquals(2, run.exitCode());
        assertTrue(run.stderr().contains("--events-json"), run.stderr());
    }

    @Test
    void valuePoliciesAreForLiveReadersAndAnUnknownPolicyIsAUsageError() {
        stage(dir, "orders/events.json");
        List<String> local = new ArrayList<>(CdcCli.specExample(dir, "--value-policy", "valid_to=clamp",
            "--value-policy-default", "as_text"));
        CliRun run = CdcCli.run(local);
        assertEquals(1, run.exitCode());
        JsonNode doc = json(run.stderr());
        assertEquals(List.of("--value-policy", "--value-policy-default"), subjects(doc).stream().sorted().toList());
        assertFalse(Files.exists(exampleDir(dir).resolve("sink")), "rejected before any side effect");

        CliRun unknown = CdcCli.run(CdcCli.specExample(dir, "--value-policy", "valid_to=truncate"));
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.stderr().contains("--value-policy valid_to: unknown policy 'truncate'"), unknown.stderr());
    }
}
