package io.dpone.serve;

import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.error.Blocker;
import java.util.Map;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedResource;

/**
 * What a CDC stream's ticks have done in this process, over JMX as {@code io.dpone:type=cdc,name=<stream>} and to
 * Prometheus. Lag is the committed position against the batch's high watermark, when both are numbers (a JSON
 * events position or a Change Tracking version); otherwise -1 and the two positions are shown as text.
 */
@ManagedResource(description = "dpone CDC stream statistics (events applied, committed position, lag)")
public class CdcStreamStats {
    private final String name;
    private long ticks;
    private long failedTicks;
    private long skippedOverlaps;
    private long eventsRead;
    private long eventsApplied;
    private String lastRunId = "";
    private String lastStatus = "none";
    private String lastBlockerCodes = "";
    private long lastDurationMs;
    private String committedPosition = "";
    private String highWatermark = "";
    private long lag = -1;
    private long millisBehindSource = -1;
    private java.time.Instant lastTickAt;

    private long materializations;
    private long failedMaterializations;
    private String lastMaterializeStatus = "none";
    private long lastMaterializeMs;
    private long visibleBehindSourceMs = -1;

    /** The operation kinds a tick retries (issue 35): its source reads, its log inserts, its read-only queries. */
    public static final java.util.List<io.dpone.retry.OperationKind> TICK_RETRY_KINDS = java.util.List.of(
        io.dpone.retry.OperationKind.SOURCE_READ, io.dpone.retry.OperationKind.CHUNK_INSERT,
        io.dpone.retry.OperationKind.METADATA_QUERY);
    /** Retried attempts of finished ticks per operation kind. */
    private final java.util.Map<io.dpone.retry.OperationKind, Long> retries =
        new java.util.EnumMap<>(io.dpone.retry.OperationKind.class);
    private long retryBudgetExhaustedTicks;

    private long verifications;
    private long failedVerifications;
    private long mismatchedBuckets = -1;
    private String lastVerifyVerdict = "none";
    private long lastVerifyMs;

    /**
     * A multi-table stream's tables ({@code schema.table}, in the order they became known: the configured ones, then
     * those a tick reported first, such as a table an include pattern matched later); empty for one table.
     */
    private final java.util.Map<String, TableStat> tables = new java.util.LinkedHashMap<>();
    /** Told of every table, once: the metrics register each table's series (a table joining later too). */
    private final java.util.List<java.util.function.Consumer<String>> tableListeners = new java.util.ArrayList<>();
    /** Tables whose last materialization failed, in the order they failed. */
    private final java.util.Set<String> materializeFailedTables = new java.util.LinkedHashSet<>();

    /** One table's figures in this process. */
    private static final class TableStat {
        long eventsRead;
        long eventsApplied;
        long millisBehindSource = -1;
        String blockerCodes = "";
        long materializations;
        long failedMaterializations;
        long snapshotRows;
    }

    public CdcStreamStats(String name) {
        this(name, java.util.List.of());
    }

    /** @param tables a multi-table stream's tables, {@code schema.table}; each gets its own figures */
    public CdcStreamStats(String name, java.util.List<String> tables) {
        this.name = name;
        tables.forEach(t -> this.tables.put(t, new TableStat()));
    }

    /** The tables of a multi-table stream known so far ({@code schema.table}); empty for a single-table stream. */
    public synchronized java.util.List<String> tableNames() {
        return java.util.List.copyOf(tables.keySet());
    }

    /** Tells {@code listener} every table known now and, later, every table that joins (each once). */
    public synchronized void onTable(java.util.function.Consumer<String> listener) {
        tableListeners.add(listener);
        tables.keySet().forEach(listener);
    }

    private TableStat table(String table) {
        TableStat t = tables.get(table);
        if (t == null) {
            t = new TableStat();
            tables.put(table, t);
            tableListeners.forEach(l -> l.accept(table));
        }
        return t;
    }

    /** Changes of {@code table} read by this process's ticks. */
    public synchronized long tableEventsRead(String table) {
        TableStat t = tables.get(table);
        return t == null ? 0 : t.eventsRead;
    }

    /** Changes of {@code table} applied to its log by this process's ticks (replays not counted). */
    public synchronized long tableEventsApplied(String table) {
        TableStat t = tables.get(table);
        return t == null ? 0 : t.eventsApplied;
    }

    /** Rows of {@code table}'s snapshot hand-over written to its log (when it joined the running stream). */
    public synchronized long tableSnapshotRows(String table) {
        TableStat t = tables.get(table);
        return t == null ? 0 : t.snapshotRows;
    }

    /** Materializations of {@code table}'s serving target by this process (a multi-table stream's materialize). */
    public synchronized long tableMaterializations(String table) {
        TableStat t = tables.get(table);
        return t == null ? 0 : t.materializations;
    }

    /** Materializations of {@code table}'s serving target that did not pass. */
    public synchronized long tableFailedMaterializations(String table) {
        TableStat t = tables.get(table);
        return t == null ? 0 : t.failedMaterializations;
    }

    /** {@code table}'s time behind the source after the last tick, -1 when unknown. */
    public synchronized long tableMillisBehindSource(String table) {
        TableStat t = tables.get(table);
        return t == null ? -1 : t.millisBehindSource;
    }

    /**
     * Per table of a multi-table stream, after the last tick: {@code schema.table read=N applied=N behind_ms=N
     * blockers=code,...}, one table per line (plus {@code snapshot_rows=N} once a table took a snapshot hand-over);
     * empty for a single-table stream.
     */
    @ManagedAttribute(description = "Per table of a multi-table stream: changes read and applied, ms behind source "
        + "after the last tick (-1 unknown), the last tick's blocker codes of the table, and the rows of its snapshot "
        + "when it joined the running stream")
    public synchronized String getTables() {
        StringBuilder out = new StringBuilder();
        for (java.util.Map.Entry<String, TableStat> e : tables.entrySet()) {
            TableStat t = e.getValue();
            out.append(out.length() == 0 ? "" : "\n").append(e.getKey()).append(" read=").append(t.eventsRead)
                .append(" applied=").append(t.eventsApplied).append(" behind_ms=").append(t.millisBehindSource)
                .append(" blockers=").append(t.blockerCodes)
                .append(t.snapshotRows > 0 ? " snapshot_rows=" + t.snapshotRows : "");
        }
        return out.toString();
    }

    public synchronized void record(CdcRuntimeRunReport r) {
        ticks++;
        if (!r.passed()) {
            failedTicks++;
        }
        if (r.counts() != null) {
            eventsRead += r.counts().read();
            eventsApplied += r.counts().applied();
        }
        lastRunId = r.runId();
        lastStatus = r.passed() ? "passed" : "failed";
        lastBlockerCodes = String.join(",", r.blockers().stream().map(Blocker::code).distinct().toList());
        lastDurationMs = r.metrics() == null ? 0 : r.metrics().durationMs();
        lastTickAt = r.finishedAt();
        Map<String, Object> after = r.offsetAfter() != null ? r.offsetAfter() : r.offsetBefore();
        if (after != null || r.passed()) {
            // a tick refused before it loaded the offset (its fence held elsewhere, an approved bundle that no
            // longer matches) knows no position: the committed one stays as last seen
            committedPosition = after == null || after.get("position") == null ? ""
                : String.valueOf(after.get("position"));
        }
        highWatermark = r.highWatermark() == null ? highWatermark : r.highWatermark();
        lag = lagOf(committedPosition, highWatermark);
        if (r.metrics() != null) {
            millisBehindSource = r.metrics().millisBehindSource();
        }
        if (r.retries() != null) {
            for (io.dpone.retry.OperationKind k : io.dpone.retry.OperationKind.values()) {
                retries.merge(k, r.retries().byKind().getOrDefault(k.key(), 0L), Long::sum);
            }
            retryBudgetExhaustedTicks += r.retries().budgetExhausted() ? 1 : 0;
        }
        for (CdcRuntimeRunReport.TableFigures t : r.tables()) {
            TableStat stat = table(t.sourceTable());
            stat.eventsRead += t.counts().read();
            stat.eventsApplied += t.counts().applied();
            stat.snapshotRows += t.snapshotApplied();
            stat.millisBehindSource = t.millisBehindSource();
            stat.blockerCodes = String.join(",", t.blockers().stream().map(Blocker::code).distinct().toList());
        }
    }

    /**
     * A materialization after a tick: its status and duration, and how far the serving view is behind the source
     * once it finished: the tick's time behind the source plus the time from the tick's end to the view's update
     * (-1 when the tick did not know its time behind the source).
     */
    public synchronized void materialized(boolean passed, long millis, long sinceTickMs) {
        materializations++;
        if (!passed) {
            failedMaterializations++;
        }
        lastMaterializeStatus = passed ? "passed" : "failed";
        lastMaterializeMs = millis;
        visibleBehindSourceMs = passed && millisBehindSource >= 0 ? millisBehindSource + sinceTickMs : -1;
    }

    /**
     * A multi-table stream's table was materialized (counted by {@link #materialized} as well): a failure names the
     * table in {@link #getLastMaterializeFailedTables()} until its next materialization passes.
     */
    public synchronized void tableMaterialized(String table, boolean passed) {
        TableStat t = table(table);
        t.materializations++;
        t.failedMaterializations += passed ? 0 : 1;
        if (passed) {
            materializeFailedTables.remove(table);
        } else {
            materializeFailedTables.add(table);
        }
    }

    @ManagedAttribute(description = "A multi-table stream's tables (schema.table, comma-separated) whose last "
        + "materialization failed; empty when none")
    public synchronized String getLastMaterializeFailedTables() {
        return String.join(",", materializeFailedTables);
    }

    /** Retried attempts of {@code kind} in the finished ticks (after transient faults). */
    public synchronized long retries(io.dpone.retry.OperationKind kind) {
        return retries.getOrDefault(kind, 0L);
    }

    @ManagedAttribute(description = "Retried attempts after transient faults in finished ticks, every operation kind")
    public synchronized long getRetries() {
        return retries.values().stream().mapToLong(Long::longValue).sum();
    }

    @ManagedAttribute(description = "Batches read again on a fresh source connection after a dropped one in "
        + "finished ticks")
    public long getSourceReadRetries() {
        return retries(io.dpone.retry.OperationKind.SOURCE_READ);
    }

    @ManagedAttribute(description = "Retried CDC log inserts (with their deduplication token) in finished ticks")
    public long getChunkInsertRetries() {
        return retries(io.dpone.retry.OperationKind.CHUNK_INSERT);
    }

    @ManagedAttribute(description = "Retried read-only queries in finished ticks")
    public long getMetadataQueryRetries() {
        return retries(io.dpone.retry.OperationKind.METADATA_QUERY);
    }

    @ManagedAttribute(description = "Finished ticks that failed because they spent their retry budget")
    public synchronized long getRetryBudgetExhaustedTicks() {
        return retryBudgetExhaustedTicks;
    }

    /** When the last tick ended (UTC), null before the first. */
    public synchronized java.time.Instant lastTickAt() {
        return lastTickAt;
    }

    /**
     * A scheduled verification: its verdict ({@code passed}, {@code repaired}, {@code mismatched}, {@code blocked}),
     * the buckets still mismatched after it (-1 when it was blocked before comparing) and its duration.
     */
    public synchronized void verified(String verdict, long mismatched, long millis) {
        verifications++;
        if (!"passed".equals(verdict) && !"repaired".equals(verdict)) {
            failedVerifications++;
        }
        lastVerifyVerdict = verdict;
        mismatchedBuckets = mismatched;
        lastVerifyMs = millis;
    }

    @ManagedAttribute(description = "Scheduled verifications run (cdc_streams[].verify)")
    public synchronized long getVerifications() {
        return verifications;
    }

    @ManagedAttribute(description = "Scheduled verifications that did not pass (mismatch or blocked)")
    public synchronized long getFailedVerifications() {
        return failedVerifications;
    }

    @ManagedAttribute(description = "Key-hash buckets that differed from the source at the last verification (-1: none "
        + "compared yet)")
    public synchronized long getMismatchedBuckets() {
        return mismatchedBuckets;
    }

    @ManagedAttribute(description = "Verdict of the last verification: passed, repaired, mismatched, blocked or none")
    public synchronized String getLastVerifyVerdict() {
        return lastVerifyVerdict;
    }

    @ManagedAttribute(description = "Duration of the last verification in milliseconds")
    public synchronized long getLastVerifyMs() {
        return lastVerifyMs;
    }

    public synchronized void skipped() {
        skippedOverlaps++;
    }

    static long lagOf(String committed, String high) {
        try {
            long c = committed.isEmpty() ? 0 : Long.parseLong(committed);
            return Math.max(0, Long.parseLong(high) - c);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @ManagedAttribute(description = "Stream name")
    public String getName() {
        return name;
    }

    @ManagedAttribute(description = "Finished ticks")
    public synchronized long getTicks() {
        return ticks;
    }

    @ManagedAttribute(description = "Finished ticks that did not pass")
    public synchronized long getFailedTicks() {
        return failedTicks;
    }

    @ManagedAttribute(description = "Ticks skipped because a tick of the same target was in flight")
    public synchronized long getSkippedOverlaps() {
        return skippedOverlaps;
    }

    @ManagedAttribute(description = "Changes read by finished ticks")
    public synchronized long getEventsRead() {
        return eventsRead;
    }

    @ManagedAttribute(description = "Rows newly written to the sink by finished ticks")
    public synchronized long getEventsApplied() {
        return eventsApplied;
    }

    @ManagedAttribute(description = "Run id of the last tick")
    public synchronized String getLastRunId() {
        return lastRunId;
    }

    @ManagedAttribute(description = "none, passed or failed")
    public synchronized String getLastStatus() {
        return lastStatus;
    }

    @ManagedAttribute(description = "Blocker codes of the last tick, comma separated")
    public synchronized String getLastBlockerCodes() {
        return lastBlockerCodes;
    }

    @ManagedAttribute(description = "Duration of the last tick in milliseconds")
    public synchronized long getLastDurationMs() {
        return lastDurationMs;
    }

    @ManagedAttribute(description = "Committed offset position")
    public synchronized String getCommittedPosition() {
        return committedPosition;
    }

    @ManagedAttribute(description = "High watermark of the last batch read")
    public synchronized String getHighWatermark() {
        return highWatermark;
    }

    @ManagedAttribute(description = "High watermark minus committed position when both are numeric, else -1")
    public synchronized long getLag() {
        return lag;
    }

    @ManagedAttribute(description = "Materializations of the serving target run after ticks")
    public synchronized long getMaterializations() {
        return materializations;
    }

    @ManagedAttribute(description = "Materializations that did not pass")
    public synchronized long getFailedMaterializations() {
        return failedMaterializations;
    }

    @ManagedAttribute(description = "passed, failed or none")
    public synchronized String getLastMaterializeStatus() {
        return lastMaterializeStatus;
    }

    @ManagedAttribute(description = "Duration of the last materialization in milliseconds")
    public synchronized long getLastMaterializeMs() {
        return lastMaterializeMs;
    }

    @ManagedAttribute(description = "Milliseconds the serving target was behind the source when the last "
        + "materialization finished; -1 when unknown")
    public synchronized long getVisibleBehindSourceMs() {
        return visibleBehindSourceMs;
    }

    @ManagedAttribute(description = "Milliseconds behind the source after the last tick: 0 when caught up, else the "
        + "source clock minus the commit time of the committed position; -1 when unknown (local events files)")
    public synchronized long getMilliSecondsBehindSource() {
        return millisBehindSource;
    }
}
