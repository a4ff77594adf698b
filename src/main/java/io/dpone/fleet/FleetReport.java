package io.dpone.fleet;

import io.dpone.error.Blocker;
import java.time.Instant;
import java.util.List;

/**
 * {@code dpone.fleet_run.v1}: one fleet run ({@code dpone run DIR --run-id ID}): each table's status, rows,
 * duration and gates, with the totals. Written after every table, so a stopped fleet leaves the record its rerun
 * resumes from (docs/discover.md, "Running the fleet").
 */
public record FleetReport(String schema, String runId, boolean passed, int parallel, Totals totals,
                          List<TableRun> tables, Instant startedAt, Instant finishedAt, long durationMs) {
    public static final String SCHEMA = "dpone.fleet_run.v1";

    /**
     * Table counts by status ({@code carriedOver}: passed in an earlier attempt of this fleet run id and not run
     * again), the rows loaded by the runs of this attempt and the sum of their durations.
     */
    public record Totals(int tables, int passed, int failed, int notRun, int carriedOver, long loadedRows,
                         long tableMillis) {
    }

    /**
     * One table. {@code status}: {@code passed}, {@code failed}, or {@code not_run} (the fleet stopped first).
     * {@code attempt}: {@code this} (run by this attempt) or {@code earlier} (passed before, carried over).
     * {@code report}: the table's {@code dpone.full_refresh_run.v1} file, relative to the fleet's directory.
     */
    public record TableRun(String manifest, String manifestSha256, String runId, String status, String attempt,
                           String sourceTable, String targetTable, String routeId, long loadedRows, long durationMs,
                           List<Gate> gates, List<Blocker> blockers, String report) {
    }

    /** A gate's name and status. */
    public record Gate(String gate, String status) {
    }
}
