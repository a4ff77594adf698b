package io.dpone.serve;

import io.dpone.error.Blocker;
import io.dpone.route.RunReport;
import java.util.List;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedResource;

/**
 * What a job (or a transfer route) has moved in this process, exposed over JMX as
 * {@code io.dpone:type=jobs,name=<job>} / {@code io.dpone:type=routes,name=<route>} and to Prometheus with the
 * same numbers ({@link ServeMetrics}).
 */
@ManagedResource(description = "dpone transfer statistics (rows, bytes and chunks moved; last run)")
public class TransferStats {
    private final String name;
    private long rowsMoved;
    private long bytesMoved;
    private long chunksMoved;
    private long runs;
    private long failedRuns;
    private long skippedOverlaps;
    private String lastRunId = "";
    private String lastStatus = "none";
    private String lastBlockerCodes = "";
    private long lastDurationMs;
    private long lastRows;
    private String running = "";

    public TransferStats(String name) {
        this.name = name;
    }

    /** Accounts a finished run. */
    public synchronized void record(RunReport r) {
        runs++;
        if (!r.passed()) {
            failedRuns++;
        }
        rowsMoved += r.loadedRows();
        bytesMoved += r.encodedBytes();
        chunksMoved += r.chunks();
        lastRunId = r.runId();
        lastStatus = r.passed() ? (r.resumedAfterPublish() ? "passed_resumed" : "passed")
            : interrupted(r.blockers()) ? "interrupted" : "failed";
        lastBlockerCodes = String.join(",", r.blockers().stream().map(Blocker::code).distinct().toList());
        lastDurationMs = r.durationMs();
        lastRows = r.loadedRows();
    }

    public synchronized void skipped() {
        skippedOverlaps++;
    }

    public synchronized void running(String runId) {
        running = runId == null ? "" : runId;
    }

    private static boolean interrupted(List<Blocker> blockers) {
        return blockers.stream().anyMatch(b -> b.code().equals(io.dpone.error.BlockerCode.SERVE_SHUTDOWN_INTERRUPTED.code()));
    }

    @ManagedAttribute(description = "Job or route name")
    public String getName() {
        return name;
    }

    @ManagedAttribute(description = "Rows loaded into staging by finished runs")
    public synchronized long getRowsMoved() {
        return rowsMoved;
    }

    @ManagedAttribute(description = "Encoded bytes loaded by finished runs")
    public synchronized long getBytesMoved() {
        return bytesMoved;
    }

    @ManagedAttribute(description = "Chunks loaded by finished runs")
    public synchronized long getChunksMoved() {
        return chunksMoved;
    }

    @ManagedAttribute(description = "Finished runs")
    public synchronized long getRuns() {
        return runs;
    }

    @ManagedAttribute(description = "Finished runs that did not pass")
    public synchronized long getFailedRuns() {
        return failedRuns;
    }

    @ManagedAttribute(description = "Ticks skipped because a run of the same target table was in flight")
    public synchronized long getSkippedOverlaps() {
        return skippedOverlaps;
    }

    @ManagedAttribute(description = "Run id of the last finished run")
    public synchronized String getLastRunId() {
        return lastRunId;
    }

    @ManagedAttribute(description = "none, passed, passed_resumed, failed or interrupted")
    public synchronized String getLastStatus() {
        return lastStatus;
    }

    @ManagedAttribute(description = "Blocker codes of the last run, comma separated")
    public synchronized String getLastBlockerCodes() {
        return lastBlockerCodes;
    }

    @ManagedAttribute(description = "Duration of the last run in milliseconds")
    public synchronized long getLastDurationMs() {
        return lastDurationMs;
    }

    @ManagedAttribute(description = "Rows loaded by the last run")
    public synchronized long getLastRows() {
        return lastRows;
    }

    @ManagedAttribute(description = "Run id in flight, empty when idle")
    public synchronized String getRunningRunId() {
        return running;
    }
}
