package io.dpone.cdc;

import static io.dpone.cdc.CdcFixtures.checkpointToken;
import static io.dpone.cdc.CdcFixtures.codes;
import static io.dpone.cdc.CdcFixtures.exampleDir;
import static io.dpone.cdc.CdcFixtures.json;
import static io.dpone.cdc.CdcFixtures.read;
import static io.dpone.cdc.CdcFixtures.stage;
import static io.dpone.cdc.CdcFixtures.subjects;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.local.FileOffsetStore;
import io.dpone.cdc.local.JsonEventsReader;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTick;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.testing.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each commit rule broken by its real cause, after a first batch committed 0x14: the report is red with the spec's
 * blocker, the checkpoint bytes and the sink log bytes are exactly as before.
 */
class CdcCommitRulesTest {
    @TempDir
    Path dir;
    Path checkpoint;
    Path rows;
    byte[] checkpointBefore;
    byte[] rowsBefore;

    @BeforeEach
    void commitFirstBatch() {
        stage(dir, "orders/events.json");
        assertEquals(0, CdcCli.run(CdcCli.specExample(dir)).exitCode());
        checkpoint = exampleDir(dir).resolve("checkpoint.json");
        rows = exampleDir(dir).resolve("sink/cdc_sink_rows.json");
        checkpointBefore = CdcFixtures.bytes(checkpoint);
        rowsBefore = CdcFixtures.bytes(rows);
    }

    private void assertUntouched() {
        assertArrayEquals(checkpointBefore, CdcFixtures.bytes(checkpoint), "checkpoint must be untouched");
        assertEquals("0x14", checkpointToken(dir));
    }

    private JsonNode redCli(String fixture) {
        stage(dir, fixture);
        CliRun run = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(1, run.exitCode(), run.stdout());
        assertEquals("", run.stdout());
        JsonNode doc = json(run.stderr());
        assertFalse(doc.path("passed").asBoolean());
        assertFalse(doc.path("committed").asBoolean());
        assertEquals(doc, read(exampleDir(dir).resolve("cdc_runtime_run.json")));
        CdcFixtures.assertNoLocalPath(run, dir);
        return doc;
    }

    @Test
    void duplicateEventInABatch() {
        JsonNode doc = redCli("orders/events_duplicate.json");
        assertEquals(List.of(CdcBlockers.DUPLICATE_EVENTS), codes(doc));
        assertEquals(List.of("changes[3]"), subjects(doc));
        assertEquals("changes[1]", doc.path("blockers").get(0).path("details").path("duplicates").get(0)
            .path("duplicate_of").asText());
        assertEquals(1, doc.path("counts").path("duplicates").asInt());
        assertTrue(doc.path("sink_receipt").isNull(), "nothing reaches the sink");
        assertUntouched();
        assertArrayEquals(rowsBefore, CdcFixtures.bytes(rows));
    }

    @Test
    void nonEmptyBatchWithoutNextOffset() {
        JsonNode doc = redCli("orders/events_no_next_offset.json");
        assertEquals(List.of(CdcBlockers.NEXT_OFFSET_MISSING), codes(doc));
        assertUntouched();
        assertArrayEquals(rowsBefore, CdcFixtures.bytes(rows));
    }

    @Test
    void staleExportBelowTheCheckpoint() throws Exception {
        stage(dir, "orders/events_batch2.json");
        assertEquals(0, CdcCli.run(CdcCli.specExample(dir)).exitCode());
        checkpointBefore = CdcFixtures.bytes(checkpoint);
        JsonNode doc = redCli("orders/events.json");
        assertEquals(List.of(CdcBlockers.OFFSET_REGRESSION), codes(doc));
        assertEquals(7, doc.path("counts").path("replayed").asInt(), "0xf..0x14 are all at or below 0x100");
        assertArrayEquals(checkpointBefore, CdcFixtures.bytes(checkpoint));
    }

    @Test
    void aChangeBeyondTheBatchsNextOffsetIsRefusedNotCommittedBelowIt() throws Exception {
        Path events = exampleDir(dir).resolve("events.json");
        CdcFixtures.copy(CdcFixtures.FIXTURES.resolve("orders/events_batch2.json"), events);
        Files.writeString(events, Files.readString(events).replaceFirst("\"token\": \"0x100\"",
            "\"token\": \"0x15\""));
        CliRun run = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(1, run.exitCode());
        JsonNode doc = json(run.stderr());
        assertEquals(List.of(CdcBlockers.CHANGE_BEYOND_NEXT_OFFSET), codes(doc));
        assertTrue(doc.path("blockers").get(0).path("subject").asText().matches("changes\\[\\d+]\\.position"));
        assertEquals("blocked", doc.path("commit_outcome").asText());
        assertUntouched();
        assertArrayEquals(rowsBefore, CdcFixtures.bytes(rows), "nothing was applied");
    }

    /**
     * An mssql_cdc export whose next offset is a decimal version would commit a checkpoint that the next tick
     * refuses (a token of the wrong shape for the backend): refused before the sink, nothing written.
     */
    @Test
    void aNextOffsetTokenOfAnotherBackendsShapeIsRefusedBeforeTheSink() throws Exception {
        Path events = exampleDir(dir).resolve("events.json");
        CdcFixtures.copy(CdcFixtures.FIXTURES.resolve("orders/events_batch2.json"), events);
        Files.writeString(events, Files.readString(events).replaceFirst("\"token\": \"0x100\"",
            "\"token\": \"256\""));
        CliRun run = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(1, run.exitCode());
        JsonNode doc = json(run.stderr());
        assertEquals(List.of(CdcBlockers.BACKEND_MISMATCH), codes(doc));
        assertEquals(List.of("next_offset.token"), subjects(doc));
        assertUntouched();
        assertArrayEquals(rowsBefore, CdcFixtures.bytes(rows), "nothing was applied");
    }

    @Test
    void aReplayOfTheCommittedBatchSaysTheOffsetIsUnchangedAndWritesNoCheckpoint() throws Exception {
        stage(dir, "orders/events.json");
        CliRun run = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode doc = json(run.stdout());
        assertFalse(doc.path("committed").asBoolean());
        assertEquals("offset_unchanged", doc.path("commit_outcome").asText());
        assertEquals(0, doc.path("counts").path("applied").asInt());
        assertUntouched();
        assertTrue(doc.path("metrics").path("setup_ms").asLong() >= 0);
        assertEquals(List.of("checkpoint", "report_json", "report_markdown", "sink_receipt", "sink_rows"),
            fieldNames(doc.path("artifacts")));
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> out = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        java.util.Collections.sort(out);
        return out;
    }

    @Test
    void changeOfAnotherTable() throws Exception {
        Path events = exampleDir(dir).resolve("events.json");
        CdcFixtures.copy(CdcFixtures.FIXTURES.resolve("orders/events_batch2.json"), events);
        Files.writeString(events, Files.readString(events).replaceFirst("\"orders\"", "\"customers\""));
        CliRun run = CdcCli.run(CdcCli.specExample(dir));
        assertEquals(1, run.exitCode());
        JsonNode doc = json(run.stderr());
        assertEquals(List.of(CdcBlockers.EVENT_STREAM_MISMATCH), codes(doc));
        assertEquals(List.of("changes[0].source_table"), subjects(doc));
        assertUntouched();
    }

    @Test
    void sinkReturnsPassedFalse() {
        CdcRuntimeRunReport r = tickWith(new InMemorySinkApplier(false, false));
        assertEquals(List.of(CdcBlockers.SINK_APPLY_FAILED), r.blockers().stream().map(b -> b.code()).toList());
        assertFalse(r.committed());
        assertUntouched();
    }

    @Test
    void sinkReturnsDurableFalse() {
        InMemorySinkApplier sink = new InMemorySinkApplier(true, false);
        CdcRuntimeRunReport r = tickWith(sink);
        assertEquals(List.of(CdcBlockers.SINK_NOT_DURABLE), r.blockers().stream().map(b -> b.code()).toList());
        assertEquals(3, sink.rows.size(), "the sink applied, but not durably");
        assertFalse(r.committed());
        assertUntouched();
    }

    @Test
    void sinkThrows() {
        CdcRuntimeRunReport r = tickWith((stream, batch) -> {
            throw new IllegalStateException("disk full");
        });
        assertEquals(List.of(CdcBlockers.SINK_APPLY_FAILED), r.blockers().stream().map(b -> b.code()).toList());
        assertUntouched();
    }

    @Test
    void localSinkOfAnotherStream() throws Exception {
        Files.writeString(rows, Files.readString(rows).replace(
            read(rows).path("stream_id").asText(), "0123456789abcdef0123456789abcdef"));
        rowsBefore = CdcFixtures.bytes(rows);
        JsonNode doc = redCli("orders/events_batch2.json");
        assertEquals(List.of(CdcBlockers.SINK_APPLY_FAILED), codes(doc));
        assertFalse(doc.path("sink_receipt").path("passed").asBoolean());
        assertUntouched();
        assertArrayEquals(rowsBefore, CdcFixtures.bytes(rows));
    }

    /** Batch 2 through the real route with the real reader and checkpoint and {@code sink} as the applier. */
    private CdcRuntimeRunReport tickWith(CdcSinkApplier sink) {
        stage(dir, "orders/events_batch2.json");
        CdcRunOptions o = CdcFixtures.specOptions(dir);
        CdcTick tick = new CdcTick("test-run", o, new CdcTick.Adapters(new JsonEventsReader(o.eventsJson(), o.stream()),
            new EventIdentityIdempotency(), sink, new FileOffsetStore(o.checkpointJson())), 1000);
        CdcRuntimeRunReport r = CdcTickRunner.run(tick);
        assertFalse(r.passed());
        JsonNode onDisk = read(exampleDir(dir).resolve("cdc_runtime_run.json"));
        assertEquals(r.blockers().get(0).code(), onDisk.path("blockers").get(0).path("code").asText());
        assertEquals(Map.of("backend", "mssql_cdc", "position", "0x14", "snapshot_complete", true), r.offsetAfter());
        return r;
    }
}
