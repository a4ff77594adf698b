package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.quality.GateResult;
import io.dpone.route.RunRecords;
import io.dpone.route.RunReport;
import io.dpone.status.RunHistory;
import io.dpone.status.StatusSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a restart the status page shows each job's last runs from the run records the earlier process left in the
 * state directory: its own job's only, at most {@link RunHistory#KEEP}, with gates, blockers and their runbook lines,
 * and the record as evidence.
 */
class StatusViewsTest {
    @TempDir
    Path state;

    @Test
    void aRestartedServeShowsTheLastRunsFromItsRunRecords() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < RunHistory.KEEP + 2; i++) {
            RunRecords.save(state, "passed", report("sales-" + i, true, t0.plusSeconds(60L * i)), "next start",
                "dpone serve (job sales)");
        }
        RunRecords.save(state, "failed", report("sales-failed", false, t0.plusSeconds(3600)), "next start",
            "dpone serve (job sales)");
        RunRecords.save(state, "passed", report("other-1", true, t0.plusSeconds(7200)), "next start",
            "dpone serve (job other)");
        StatusViews views = new StatusViews(state);
        views.seed(List.of(new ServeConfig.Job("sales", null, null, new ServeConfig.Schedule(Duration.ofHours(1),
            Duration.ZERO, null))));

        List<StatusSnapshot.Run> runs = views.history().last("sales");
        assertEquals(RunHistory.KEEP, runs.size());
        StatusSnapshot.Run newest = runs.get(0);
        assertEquals("sales-failed", newest.runId(), "newest first; another job's runs are not this job's");
        assertEquals("failed", newest.status());
        assertEquals(List.of("row_count"), newest.gates().stream().map(StatusSnapshot.Gate::name).toList());
        assertEquals("source.table_missing", newest.blockers().get(0).code());
        assertEquals("fix the table or column name", newest.blockers().get(0).runbook());
        assertEquals(5_000, newest.durationMs());
        assertTrue(views.history().evidence("sales-failed", "run_record.json").isPresent());
        assertEquals("sales-" + (RunHistory.KEEP + 1), runs.get(1).runId());
        assertTrue(views.history().last("other").isEmpty(), "a job this serve does not have is not shown");
    }

    private static RunReport report(String runId, boolean passed, Instant start) {
        return new RunReport(RunReport.SCHEMA, runId, passed, "typed_binary_streaming", "p", "dbo.sales",
            "analytics.sales", 10, passed ? 10 : 0, 100, 1, false,
            List.of(passed ? GateResult.passed("row_count", Map.of()) : GateResult.failed("row_count", Map.of(), null)),
            passed ? List.of() : List.of(Blocker.of(BlockerCode.SOURCE_TABLE_MISSING, "source.table", "no such table")),
            Map.of(), start, start.plusSeconds(5), 5_000, 2);
    }
}
