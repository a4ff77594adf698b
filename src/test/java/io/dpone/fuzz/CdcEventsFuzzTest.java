package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.testing.CliRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated CDC events files through {@code dpone ops cdc-runtime-run --mode local}: the shipped example's first batch
 * on an empty stream and the test fixture's second batch on the committed first one. Every case keeps
 * {@link FuzzInvariants} (the reports the tick wrote included), and a refused tick leaves the checkpoint and the
 * sink files byte for byte as they were.
 */
class CdcEventsFuzzTest {
    static final int CASES = FuzzInvariants.cases(200);
    static final List<String> DOMAIN = List.of("mssql_cdc", "mssql_change_tracking", "events_json", "0x14", "0x15",
        "0x13", "0x0", "0", "20", "0x100", "0x" + "f".repeat(64), "insert", "update", "delete", "update_before",
        "update_after", "upsert", "dbo", "orders", "customers", "order_id", "dpone_cdc_version", "int", "bigint",
        "decimal(10,2)", "decimal(38,38)", "nvarchar(max)", "nvarchar(20)", "datetime2(3)", "datetimeoffset(7)",
        "uniqueidentifier", "bit", "date", "money", "varbinary(max)", "geography", "2026-01-01T00:00:00Z",
        "00000000-0000-0000-0000-000000000000");

    @TempDir
    Path root;

    /** A secret in a change's data or metadata (a credential-named column), else anywhere. */
    static boolean plant(ArrayNode holder, Mutator.Planting p) {
        List<ObjectNode> changes = new ArrayList<>();
        JsonNode list = holder.size() == 0 ? null : holder.get(0).path("changes");
        if (list != null && list.isArray()) {
            list.forEach(c -> {
                if (c instanceof ObjectNode o && o.path("data") instanceof ObjectNode) {
                    changes.add(o);
                }
            });
        }
        if (changes.isEmpty()) {
            return Trees.plantAnywhere(holder, p);
        }
        ObjectNode change = Trees.any(p.random(), changes);
        if (p.random().nextBoolean()) {
            ((ObjectNode) change.get("data")).put("password", p.secret());
        } else {
            (change.path("metadata") instanceof ObjectNode m ? m : change.putObject("metadata"))
                .put("token", p.secret());
        }
        return true;
    }

    @Test
    void mutatedEventsFilesAreTypedRefusalsThatWriteNothing() {
        long seed = FuzzInvariants.seed();
        Path baseline = LocalTick.baseline(root);
        List<JsonNode> bases = List.of(Trees.read(Path.of("examples/cdc/orders/events.json")),
            Trees.read(Path.of("src/test/resources/fixtures/cdc/orders/events_batch2.json")));
        Random random = new Random(seed + 2);
        Mutator mutator = new Mutator(new Mutator.Kind("events", false, DOMAIN, CdcEventsFuzzTest::plant), seed + 2);
        FuzzTally tally = new FuzzTally("events", seed);
        long start = System.nanoTime();
        for (int i = 0; i < CASES; i++) {
            long caseStart = System.nanoTime();
            int base = random.nextInt(bases.size());
            FuzzCase c = mutator.next(bases.get(base), i, FuzzInvariants.secret(random));
            Path dir = LocalTick.caseDir(root, baseline, base == 1);
            Trees.write(dir.resolve("events.json"), c.bytes());
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
