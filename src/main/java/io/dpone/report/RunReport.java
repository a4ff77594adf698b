package io.dpone.report;

import io.dpone.error.Blocker;
import io.dpone.quality.GateResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The result of {@code dpone run} and {@code Dpone.run}: schema {@value #SCHEMA}. */
public record RunReport(String schema, String runId, boolean passed, String routeId, String pipeline,
                        String sourceTable, String targetTable, long sourceRows, long loadedRows, long encodedBytes,
                        int chunks, boolean resumedAfterPublish, List<GateResult> gates, List<Blocker> blockers,
                        Map<String, Long> stepMillis, Instant startedAt, Instant finishedAt, long durationMs,
                        long rowsPerSecond) {
    public static final String SCHEMA = "dpone.full_refresh_run.v1";

    public RunReport {
        gates = List.copyOf(gates);
        blockers = List.copyOf(blockers);
        stepMillis = Map.copyOf(stepMillis);
    }
}
