package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code dpone ops cdc-runtime-run} processes (real JVMs, not threads) started together on one checkpoint and
 * one output directory, round after round, the way two overlapping cron entries run: each exported its own events
 * file from the checkpoint it saw (the same start, different ends). Whatever the interleaving, every event a tick
 * reports as applied is in the sink exactly once, no event at or below the checkpoint is missing from the sink, and
 * a tick that lost reports {@code cdc_runtime.offset_conflict} (or, when the other finished first,
 * {@code cdc_runtime.offset_regression}: its export is stale), exits non-zero and commits nothing.
 */
@io.dpone.testing.ProcessTest
class ConcurrentTicksProcessTest {
    private static final int ROUNDS = 8;
    private static final int TOTAL_EVENTS = 400;

    @TempDir
    Path base;

    @Test
    void twoTicksStartedTogetherNeverLoseOrDoubleABatch() throws Exception {
        Path dir = CdcFixtures.exampleDir(base);
        Files.createDirectories(dir);
        Random random = new Random(20261203L);
        int conflicts = 0;
        int wins = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int from = checkpointPosition(dir);
            if (from >= TOTAL_EVENTS) {
                break;
            }
            List<Process> ticks = new ArrayList<>();
            List<Path> outs = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int to = Math.min(TOTAL_EVENTS, from + 10 + random.nextInt(40));
                Path events = dir.resolve("events-" + round + "-" + t + ".json");
                Files.writeString(events, eventsJson(from, to), StandardCharsets.UTF_8);
                Path out = dir.resolve("tick-" + round + "-" + t + ".out");
                outs.add(out);
                ticks.add(start(dir, events, out));
            }
            Map<String, Integer> appliedByRun = new HashMap<>();
            for (int t = 0; t < 2; t++) {
                int exit = io.dpone.testing.Await.exit(ticks.get(t), java.time.Duration.ofSeconds(120), "tick " + t);
                // a passed report goes to stdout, a red one to stderr (the CLI's JSON failure document)
                JsonNode report = CdcFixtures.read(exit == 0 ? outs.get(t) : Path.of(outs.get(t) + ".err"));
                if (report.path("passed").asBoolean()) {
                    assertEquals(0, exit);
                    wins++;
                    appliedByRun.put(report.path("run_id").asText(), report.path("counts").path("applied").asInt());
                } else {
                    // the other tick held the stream (conflict), or finished first and moved the checkpoint past
                    // this tick's export, which is then stale (regression): either way nothing is committed
                    assertTrue(List.of(List.of(CdcBlockers.OFFSET_CONFLICT), List.of(CdcBlockers.OFFSET_REGRESSION))
                        .contains(CdcFixtures.codes(report)), report.toString());
                    assertFalse(report.path("committed").asBoolean());
                    assertTrue(exit != 0, "a losing tick exits non-zero");
                    conflicts += CdcFixtures.codes(report).contains(CdcBlockers.OFFSET_CONFLICT) ? 1 : 0;
                }
            }
            assertSinkHolds(dir, appliedByRun);
        }
        assertTrue(wins >= ROUNDS, "at least one tick per round committed: " + wins);
        System.out.println("concurrent ticks: " + wins + " committed, " + conflicts + " told offset_conflict");
        assertTrue(conflicts > 0, "the ticks never overlapped, so the fence was not exercised");
    }

    private static Process start(Path dir, Path events, Path out) throws IOException {
        List<String> args = new ArrayList<>();
        List<String> cli = CdcCli.specExample(dir.getParent().getParent().getParent().getParent());
        for (int i = 0; i < cli.size(); i++) {
            args.add(cli.get(i).equals(dir.resolve("events.json").toString()) ? events.toString() : cli.get(i));
        }
        return io.dpone.testing.ChildJvm.cli().jvm("-XX:TieredStopAtLevel=1").args(args)
            .env("DPONE_PROGRESS_INTERVAL", "0").stdout(out).stderr(Path.of(out + ".err")).start();
    }

    /** Inserts at LSNs {@code from+1 .. to} (one order each, written as mssql_cdc hex), next offset {@code to}. */
    private static String eventsJson(int from, int to) {
        StringBuilder changes = new StringBuilder();
        for (int p = from + 1; p <= to; p++) {
            if (changes.length() > 0) {
                changes.append(",\n");
            }
            changes.append("{\"operation\":\"insert\",\"position\":\"0x").append(Integer.toHexString(p))
                .append("\",\"sequence\":1,")
                .append("\"source_schema\":\"dbo\",\"source_table\":\"orders\",\"data\":{\"order_id\":").append(p)
                .append(",\"status\":\"new\"},\"metadata\":{\"backend\":\"mssql_cdc\"}}");
        }
        String lsn = "0x" + Integer.toHexString(to);
        return "{\"high_watermark\":\"" + lsn + "\",\"next_offset\":{\"backend\":\"mssql_cdc\",\"token\":\"" + lsn
            + "\",\"snapshot_complete\":true},\"changes\":[" + changes + "]}";
    }

    private static int checkpointPosition(Path dir) {
        Path file = dir.resolve("checkpoint.json");
        return Files.exists(file) ? CdcPosition.parse(CdcFixtures.read(file).path("offset").path("token").asText())
            .orElseThrow().value().intValue() : 0;
    }

    private static void assertSinkHolds(Path dir, Map<String, Integer> appliedByRun) {
        Path rowsFile = dir.resolve("sink/cdc_sink_rows.json");
        List<JsonNode> rows = new ArrayList<>();
        if (Files.exists(rowsFile)) {
            CdcFixtures.read(rowsFile).path("rows").forEach(rows::add);
        }
        Set<Integer> orders = new HashSet<>();
        Map<String, Integer> rowsByRun = new HashMap<>();
        for (JsonNode r : rows) {
            assertTrue(orders.add(r.path("order_id").asInt()), "order " + r.path("order_id") + " twice in the sink");
            rowsByRun.merge(r.path("dpone_cdc_run_id").asText(), 1, Integer::sum);
        }
        appliedByRun.forEach((run, applied) -> assertEquals(applied, rowsByRun.getOrDefault(run, 0),
            "tick " + run + " reported " + applied + " applied"));
        int checkpoint = checkpointPosition(dir);
        for (int p = 1; p <= checkpoint; p++) {
            assertTrue(orders.contains(p), "the checkpoint is at " + checkpoint + " but event " + p
                + " is not in the sink");
        }
    }
}
