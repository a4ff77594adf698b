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
    private double lastSuccessEpochSeconds;
    private final java.util.Map<String, Integer> gates = new java.util.HashMap<>();
    /** Retried attempts of finished runs per operation kind (issue 35: io.dpone.retry.OperationKind). */
    private final java.util.Map<io.dpone.retry.OperationKind, Long> retries =
        new java.util.EnumMap<>(io.dpone.retry.OperationKind.class);
    private long retryBudgetExhaustedRuns;

    /** The gates a run reports, in the order they run (docs/quality-gates.md). */
    public static final List<String> GATES = List.of("row_count", "null_counts", "distinct_counts", "typed_hash",
        "decimal_fidelity", "float_fidelity", "unicode_fidelity", "metadata_columns", "cleanup_audit");
    private final InFlight inFlight = new InFlight();

    /** What the run in flight has done so far, updated from the route's threads while it runs. */
    private static final class InFlight implements io.dpone.route.ProgressListener {
        private volatile long rows;
        private volatile long expected;
        private volatile int chunks;
        private volatile String phase = "";

        @Override
        public void rowsRead(long count) {
            rows = count;
        }

        @Override
        public void rowsExpected(long count) {
            expected = count;
        }

        @Override
        public void chunkDone(int count) {
            chunks = count;
        }

        @Override
        public void phase(String step) {
            phase = step;
        }

        void reset() {
            rows = 0;
            expected = 0;
            chunks = 0;
            phase = "";
        }
    }

    public TransferStats(String name) {
        this.name = name;
    }

    /** Accounts a finished run. */
    public synchronized void record(RunReport r) {
        runs++;
        if (!r.passed() && !interrupted(r.blockers())) { // a run the shutdown stopped resumes; it did not fail
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
        if (r.passed()) {
            lastSuccessEpochSeconds = r.finishedAt() == null ? System.currentTimeMillis() / 1000.0
                : r.finishedAt().toEpochMilli() / 1000.0;
        }
        if (r.retries() != null) {
            for (io.dpone.retry.OperationKind k : io.dpone.retry.OperationKind.values()) {
                retries.merge(k, r.retries().byKind().getOrDefault(k.key(), 0L), Long::sum);
            }
            retryBudgetExhaustedRuns += r.retries().budgetExhausted() ? 1 : 0;
        }
        gates.clear();
        r.gates().forEach(g -> gates.put(g.gate(), "passed".equals(g.status()) ? 1 : "failed".equals(g.status())
            ? 0 : -1));
    }

    /** Retried attempts of {@code kind} in the finished runs (after transient faults). */
    public synchronized long retries(io.dpone.retry.OperationKind kind) {
        return retries.getOrDefault(kind, 0L);
    }

    @ManagedAttribute(description = "Retried attempts after transient faults in finished runs, every operation kind")
    public synchronized long getRetries() {
        return retries.values().stream().mapToLong(Long::longValue).sum();
    }

    @ManagedAttribute(description = "Retried chunk inserts (with their deduplication token) in finished runs")
    public long getChunkInsertRetries() {
        return retries(io.dpone.retry.OperationKind.CHUNK_INSERT);
    }

    @ManagedAttribute(description = "Retried metadata queries in finished runs")
    public long getMetadataQueryRetries() {
        return retries(io.dpone.retry.OperationKind.METADATA_QUERY);
    }

    @ManagedAttribute(description = "Source key ranges re-read after a dropped connection in finished runs")
    public long getSourceReadRetries() {
        return retries(io.dpone.retry.OperationKind.SOURCE_READ);
    }

    @ManagedAttribute(description = "Retried object puts in finished runs")
    public long getObjectPutRetries() {
        return retries(io.dpone.retry.OperationKind.OBJECT_PUT);
    }

    @ManagedAttribute(description = "Retried object gets and listings in finished runs")
    public long getObjectGetRetries() {
        return retries(io.dpone.retry.OperationKind.OBJECT_GET);
    }

    @ManagedAttribute(description = "Finished runs that failed because they spent their retry budget")
    public synchronized long getRetryBudgetExhaustedRuns() {
        return retryBudgetExhaustedRuns;
    }

    /** 1 passed, 0 failed, -1 skipped or not run, for {@code gate} in the last finished run. */
    public synchronized double gateStatus(String gate) {
        return gates.getOrDefault(gate, -1);
    }

    @ManagedAttribute(description = "Unix time in seconds the last passing run ended (0 before the first)")
    public synchronized double getLastSuccessEpochSeconds() {
        return lastSuccessEpochSeconds;
    }

    public synchronized void skipped() {
        skippedOverlaps++;
    }

    /** A run starts ({@code runId}) or ends ({@code null}); the in-flight figures start again from zero. */
    public synchronized void running(String runId) {
        running = runId == null ? "" : runId;
        inFlight.reset();
    }

    /** The listener that keeps the in-flight figures of the run this object tracks. */
    public io.dpone.route.ProgressListener progress() {
        return inFlight;
    }

    @ManagedAttribute(description = "Rows read from the source by the run in flight (0 when idle)")
    public long getInFlightRowsScanned() {
        return inFlight.rows;
    }

    @ManagedAttribute(description = "Rows the run in flight expects: the source's estimate (0 when idle or unknown)")
    public long getInFlightExpectedRows() {
        return inFlight.expected;
    }

    @ManagedAttribute(description = "Chunks the run in flight has loaded (or uploaded) so far (0 when idle)")
    public long getInFlightChunks() {
        return inFlight.chunks;
    }

    @ManagedAttribute(description = "The route step the run in flight is in, e.g. load_chunk (empty when idle)")
    public String getInFlightPhase() {
        return inFlight.phase;
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

    @ManagedAttribute(description = "Finished runs that did not pass (a run the shutdown stopped is not counted: it resumes)")
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
