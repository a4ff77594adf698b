package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.testing.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37's replayed CDC input cases through {@code dpone ops cdc-runtime-run --mode local}, on the committed first
 * batch: each is a typed refusal that keeps {@link FuzzInvariants} and leaves the checkpoint and the sink files byte
 * for byte as they were.
 */
class HostileInputReplayTest {
    @TempDir
    Path root;

    private static final String BATCH2 = "src/test/resources/fixtures/cdc/orders/events_batch2.json";

    @Test
    void aLoneSurrogateInAValueOrANameIsRefusedWithTheCheckpointUnchanged() throws Exception {
        Path baseline = LocalTick.baseline(root);
        String events = Files.readString(Path.of(BATCH2));
        List<String> cases = List.of(
            events.replaceFirst("\"status\": \"paid\"", "\"status\": \"a\\\\ud800b\""),
            events.replaceFirst("\"status\": \"paid\"", "\"st\\\\udc00atus\": \"paid\""),
            events.replaceFirst("\"status\": \"paid\"", "\"status\": \"\\\\ud83d\""));
        for (int i = 0; i < cases.size(); i++) {
            String text = cases.get(i);
            assertEquals(false, text.equals(events), "case " + i + " changed the fixture");
            refusedUnchanged(baseline, i, text.getBytes(StandardCharsets.UTF_8), "cdc_runtime.value_out_of_range");
        }
        // the control: the same batch without the surrogate is applied
        Path dir = LocalTick.caseDir(root, baseline, true);
        Files.writeString(dir.resolve("events.json"), events);
        CliRun ok = LocalTick.run(dir);
        assertEquals(0, ok.exitCode(), ok.stderr());
    }

    @Test
    void aLoneSurrogatePlantedAnywhereInTheBatchIsRefused() throws Exception {
        // seeded: a random lone surrogate (as a JSON escape, how an export carries one) replaces or joins a random
        // string of the batch: a value, a column name or a metadata value; each case is refused with nothing written
        long seed = FuzzInvariants.seed();
        java.util.Random random = new java.util.Random(seed + 37);
        Path baseline = LocalTick.baseline(root);
        String events = Files.readString(Path.of(BATCH2));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"([A-Za-z_ ]{2,24})\"").matcher(events);
        List<int[]> strings = new java.util.ArrayList<>();
        while (m.find()) {
            if (!List.of("operation", "position", "sequence", "source_schema", "source_table", "data", "metadata",
                "changes", "next_offset", "backend", "token", "columns", "name", "type", "nullable",
                "snapshot_complete", "high_watermark", "insert", "update", "delete", "orders", "dbo", "order_id",
                "mssql_cdc")
                .contains(m.group(1))) {
                strings.add(new int[] {m.start(1), m.end(1)});
            }
        }
        int cases = Math.min(12, FuzzInvariants.cases(12));
        for (int i = 0; i < cases; i++) {
            int[] at = strings.get(random.nextInt(strings.size()));
            String escape = String.format("\\u%04x", 0xd800 + random.nextInt(0x800));
            int where = at[0] + random.nextInt(at[1] - at[0] + 1);
            String text = events.substring(0, where) + escape + events.substring(where);
            refusedUnchanged(baseline, i, text.getBytes(StandardCharsets.UTF_8), "cdc_runtime.value_out_of_range");
        }
    }

    @Test
    void danglingLinksAtTheTickLocksAreNotFollowed() throws Exception {
        // issue 37: a dangling link at <checkpoint>.lock or .dpone-sink.lock used to create its target
        Path baseline = LocalTick.baseline(root);
        for (String lock : List.of("checkpoint.json.lock", "out/sink/.dpone-sink.lock")) {
            Path dir = LocalTick.caseDir(root, baseline, true);
            Files.writeString(dir.resolve("events.json"), Files.readString(Path.of(BATCH2)));
            Path target = root.resolve("created-through-" + lock.replace('/', '_'));
            Files.deleteIfExists(dir.resolve(lock));
            Files.createDirectories(dir.resolve(lock).getParent());
            Files.createSymbolicLink(dir.resolve(lock), target);
            List<Object> before = LocalTick.state(dir);
            CliRun run = LocalTick.run(dir);
            List<String> codes = FuzzInvariants.check(new FuzzCase("replay", 0, List.of(), new byte[0], null), run,
                root, 0, LocalTick.reports(dir));
            assertEquals(List.of("runtime.unsafe_path"), codes, run.stderr());
            assertEquals(false, Files.exists(target), lock + ": the link's target was created");
            assertEquals(before, LocalTick.state(dir), "refused but written");
        }
    }

    @Test
    void aFifoAsEventsJsonIsRefusedAtOnce() throws Exception {
        // issue 37: a FIFO given as --events-json blocked until the watchdog
        Path baseline = LocalTick.baseline(root);
        Path dir = LocalTick.caseDir(root, baseline, true);
        io.dpone.testing.Fifos.make(dir.resolve("events.json"));
        List<Object> before = LocalTick.state(dir);
        CliRun run = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
            () -> LocalTick.run(dir));
        List<String> codes = FuzzInvariants.check(new FuzzCase("replay", 0, List.of(), new byte[0], null), run, root,
            0, LocalTick.reports(dir));
        assertEquals(List.of("cdc_runtime.events_unreadable"), codes, run.stderr());
        assertEquals(before, LocalTick.state(dir), "refused but written");
    }

    private void refusedUnchanged(Path baseline, int index, byte[] bytes, String code) {
        Path dir = LocalTick.caseDir(root, baseline, true);
        Trees.write(dir.resolve("events.json"), bytes);
        List<Object> before = LocalTick.state(dir);
        FuzzCase c = new FuzzCase("replay", index, List.of(), bytes, null);
        CliRun run = LocalTick.run(dir);
        List<String> codes = FuzzInvariants.check(c, run, root, 0, LocalTick.reports(dir));
        assertEquals(List.of(code), codes, run.stderr());
        assertEquals(before, LocalTick.state(dir), "refused but written");
    }
}
