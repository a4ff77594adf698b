package io.dpone.route;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.dpone.error.Blocker;
import io.dpone.quality.GateResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The result of {@code dpone run} and {@code Dpone.run}: schema {@value #SCHEMA}. {@code publication} is present
 * for a cluster publication and carries the protocol outcome and the durable receipt. {@code notes} states facts
 * that are neither gates nor blockers, such as how the source was read (absent when there is none); {@code probes} lists
 * the object-storage routes' capability probes ({@link ProbeResult}, absent on the other routes).
 */
public record RunReport(String schema, String runId, boolean passed, String routeId, String pipeline,
                        String sourceTable, String targetTable, long sourceRows, long loadedRows, long encodedBytes,
                        int chunks, boolean resumedAfterPublish, List<GateResult> gates, List<Blocker> blockers,
                        Map<String, Long> stepMillis, Instant startedAt, Instant finishedAt, long durationMs,
                        long rowsPerSecond, io.dpone.publication.runtime.ClusterPublicationResult publication,
                        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> notes,
                        @JsonInclude(JsonInclude.Include.NON_NULL) ResumedStaging resumedStaging,
                        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ProbeResult> probes,
                        @JsonInclude(JsonInclude.Include.NON_NULL) io.dpone.retry.RetryTally retries) {
    public static final String SCHEMA = "dpone.full_refresh_run.v1";

    /** Without a retry tally (a report built outside a transfer run; the key is then absent). */
    public RunReport(String schema, String runId, boolean passed, String routeId, String pipeline,
                     String sourceTable, String targetTable, long sourceRows, long loadedRows, long encodedBytes,
                     int chunks, boolean resumedAfterPublish, List<GateResult> gates, List<Blocker> blockers,
                     Map<String, Long> stepMillis, Instant startedAt, Instant finishedAt, long durationMs,
                     long rowsPerSecond, io.dpone.publication.runtime.ClusterPublicationResult publication,
                     List<String> notes, ResumedStaging resumedStaging, List<ProbeResult> probes) {
        this(schema, runId, passed, routeId, pipeline, sourceTable, targetTable, sourceRows, loadedRows,
            encodedBytes, chunks, resumedAfterPublish, gates, blockers, stepMillis, startedAt, finishedAt,
            durationMs, rowsPerSecond, publication, notes, resumedStaging, probes, null);
    }

    /** Without probe results (the key is then absent from the JSON document). */
    public RunReport(String schema, String runId, boolean passed, String routeId, String pipeline,
                     String sourceTable, String targetTable, long sourceRows, long loadedRows, long encodedBytes,
                     int chunks, boolean resumedAfterPublish, List<GateResult> gates, List<Blocker> blockers,
                     Map<String, Long> stepMillis, Instant startedAt, Instant finishedAt, long durationMs,
                     long rowsPerSecond, io.dpone.publication.runtime.ClusterPublicationResult publication,
                     List<String> notes, ResumedStaging resumedStaging) {
        this(schema, runId, passed, routeId, pipeline, sourceTable, targetTable, sourceRows, loadedRows,
            encodedBytes, chunks, resumedAfterPublish, gates, blockers, stepMillis, startedAt, finishedAt,
            durationMs, rowsPerSecond, publication, notes, resumedStaging, List.of());
    }

    /**
     * A resume that kept the staging table an earlier attempt of the run left: the rows it held (not loaded again)
     * and the chunk inserts they came in (counted by their distinct load id and load time).
     */
    public record ResumedStaging(long rowsKept, long chunksKept) {
    }

    /** The report of a cluster publication: its protocol outcome and receipt, no transfer route or gates. */
    public static RunReport ofCluster(io.dpone.publication.runtime.ClusterRun r) {
        long ms = Math.max(1, java.time.Duration.between(r.startedAt(), r.finishedAt()).toMillis());
        long rows = r.rows();
        return new RunReport(SCHEMA, r.runId(), r.passed(), io.dpone.publication.runtime.ClusterPublicationRunner.ROUTE_ID,
            r.pipeline(), r.sourceTable(), r.targetTable(), rows, rows, r.bytes(), rows > 0 ? 1 : 0,
            r.publication().resumedFrom() != null, List.of(), r.blockers(), Map.of(), r.startedAt(), r.finishedAt(), ms,
            rows * 1000 / ms, r.publication());
    }

    /** Without notes (the key is then absent from the JSON document). */
    public RunReport(String schema, String runId, boolean passed, String routeId, String pipeline,
                     String sourceTable, String targetTable, long sourceRows, long loadedRows, long encodedBytes,
                     int chunks, boolean resumedAfterPublish, List<GateResult> gates, List<Blocker> blockers,
                     Map<String, Long> stepMillis, Instant startedAt, Instant finishedAt, long durationMs,
                     long rowsPerSecond, io.dpone.publication.runtime.ClusterPublicationResult publication) {
        this(schema, runId, passed, routeId, pipeline, sourceTable, targetTable, sourceRows, loadedRows,
            encodedBytes, chunks, resumedAfterPublish, gates, blockers, stepMillis, startedAt, finishedAt,
            durationMs, rowsPerSecond, publication, List.of(), null);
    }

    /** A local (single-server) run: no cluster publication block. */
    public RunReport(String schema, String runId, boolean passed, String routeId, String pipeline,
                     String sourceTable, String targetTable, long sourceRows, long loadedRows, long encodedBytes,
                     int chunks, boolean resumedAfterPublish, List<GateResult> gates, List<Blocker> blockers,
                     Map<String, Long> stepMillis, Instant startedAt, Instant finishedAt, long durationMs,
                     long rowsPerSecond) {
        this(schema, runId, passed, routeId, pipeline, sourceTable, targetTable, sourceRows, loadedRows,
            encodedBytes, chunks, resumedAfterPublish, gates, blockers, stepMillis, startedAt, finishedAt,
            durationMs, rowsPerSecond, null);
    }

    /** This report with one more note. */
    public RunReport withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes);
        more.add(note);
        return new RunReport(schema, runId, passed, routeId, pipeline, sourceTable, targetTable, sourceRows,
            loadedRows, encodedBytes, chunks, resumedAfterPublish, gates, blockers, stepMillis, startedAt, finishedAt,
            durationMs, rowsPerSecond, publication, more, resumedStaging, probes, retries);
    }

    /** This report with {@code others} as its blockers (and so not passed). */
    public RunReport withBlockers(List<Blocker> others) {
        return new RunReport(schema, runId, false, routeId, pipeline, sourceTable, targetTable, sourceRows, loadedRows,
            encodedBytes, chunks, resumedAfterPublish, gates, others, stepMillis, startedAt, finishedAt, durationMs,
            rowsPerSecond, publication, notes, resumedStaging, probes, retries);
    }

    public RunReport {
        gates = List.copyOf(gates);
        blockers = List.copyOf(blockers);
        stepMillis = Map.copyOf(stepMillis);
        notes = notes == null ? List.of() : List.copyOf(notes);
        probes = probes == null ? List.of() : List.copyOf(probes);
    }
}
