package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.cdc.StreamIdentity;
import io.dpone.testing.CliRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated checkpoints under {@code dpone ops cdc-runtime-run --mode local}: the checkpoint the shipped example's
 * first batch committed, mutated, then the test fixture's second batch. Every case keeps {@link FuzzInvariants}; a
 * refused tick leaves the (mutated) checkpoint and the sink files byte for byte as they were. A mutation that keeps
 * the stream and its offset usable may pass.
 */
class CheckpointFuzzTest {
    static final int CASES = FuzzInvariants.cases(160);
    static final String STREAM_ID = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id")).streamId();
    static final List<String> DOMAIN = List.of("mssql_cdc", "mssql_change_tracking", "events_json", "0x14", "0x13",
        "0x15", "0x0", "0X14", "20", "0", "0x" + "f".repeat(64), "0x" + "f".repeat(65), STREAM_ID,
        "0".repeat(32), STREAM_ID.toUpperCase(java.util.Locale.ROOT), "dpone.cdc_checkpoint.v1",
        "dpone.cdc_checkpoint.v2", "orders-cdc", "dbo", "orders", "analytics.orders", "order_id",
        "{\"lsn\":\"0x15\"}", "{not json", "[]", "null", "2026-01-01T00:00:00Z");

    @TempDir
    Path root;

    /** A secret in the offset's resume point or an extra field of the checkpoint. */
    static boolean plant(ArrayNode holder, Mutator.Planting p) {
        JsonNode doc = holder.size() == 0 ? null : holder.get(0);
        if (doc instanceof ObjectNode o && o.path("offset") instanceof ObjectNode offset && p.random().nextBoolean()) {
            offset.put("resume", "{\"password\":\"" + p.secret() + "\"}");
            return true;
        }
        if (doc instanceof ObjectNode o) {
            o.put(Trees.any(p.random(), List.of("token", "password", "note")), p.secret());
            return true;
        }
        return Trees.plantAnywhere(holder, p);
    }

    @Test
    void mutatedCheckpointsAreTypedRefusalsThatAreNeverOverwritten() {
        long seed = FuzzInvariants.seed();
        Path baseline = LocalTick.baseline(root);
        JsonNode base = Trees.read(baseline.resolve("checkpoint.json"));
        Path batch2 = Path.of("src/test/resources/fixtures/cdc/orders/events_batch2.json");
        Random random = new Random(seed + 3);
        Mutator mutator = new Mutator(new Mutator.Kind("checkpoint", false, DOMAIN, CheckpointFuzzTest::plant),
            seed + 3);
        FuzzTally tally = new FuzzTally("checkpoint", seed);
        long start = System.nanoTime();
        for (int i = 0; i < CASES; i++) {
            long caseStart = System.nanoTime();
            FuzzCase c = mutator.next(base, i, FuzzInvariants.secret(random));
            Path dir = LocalTick.caseDir(root, baseline, true);
            Trees.write(dir.resolve("checkpoint.json"), c.bytes());
            LocalTick.copy(batch2, dir.resolve("events.json"));
            List<Object> before = LocalTick.state(dir);
            CliRun run = LocalTick.run(dir);
            try {
                List<String> codes = FuzzInvariants.check(c, run, root, seed, LocalTick.reports(dir));
                if (run.exitCode() == 1) {
                    assertEquals(before, LocalTick.state(dir), () -> c.describe(seed) + ": refused but written: "
                        + codes);
                }
                tally.add(c, run.exitCode(), codes, caseStart);
            } catch (AssertionError e) {
                FuzzInvariants.save(c);
                throw e;
            }
        }
        String summary = tally.write((System.nanoTime() - start) / 1_000_000);
        assertTrue(tally.cases() >= CASES, summary);
    }
}
