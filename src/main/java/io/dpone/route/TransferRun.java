package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.connect.ConnectionType;
import io.dpone.clickhouse.PartwiseTableStats;
import io.dpone.clickhouse.ReplacedGenerationMerges;
import io.dpone.format.ChunkFormat;
import io.dpone.quality.GateResult;
import io.dpone.quality.SourceStats;
import io.dpone.source.SourceTable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One full-refresh run as it travels through its route (the exchange body outside the split): the immutable
 * {@link RunPlan}, the {@link RunCounters} the steps update, the {@link RunResources} the runner owns and closes, and
 * the staging state the prepare step fixes once. No field is public; every change goes through a named method, so
 * what a step may change is visible in its calls.
 */
public final class TransferRun {
    private final RunPlan plan;
    private final RunCounters counters = new RunCounters();
    private final RunResources resources = new RunResources();
    private final io.dpone.retry.RetryBudget retries;
    private final List<GateResult> gates = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<ProbeResult> probes = new ArrayList<>();
    private String stagingTable;
    private Path spoolDir;
    private SourceTable table;
    private ChunkFormat format;
    private Instant extractedAt;
    private PartwiseTableStats stagingStats;
    private ReplacedGenerationMerges replacedMerges;
    private SourceStats sourceStats;
    private java.util.Map<String, String> pullReadSettings;
    private boolean published;
    private boolean resumedAfterPublish;
    private StagingResume.Kept keptStaging;

    public TransferRun(RunPlan plan) {
        this.plan = plan;
        this.retries = new io.dpone.retry.RetryBudget(plan.manifest().retrySettings());
    }

    /** The run's retry budget (issue 35): every idempotent operation of the run retries under it. */
    public io.dpone.retry.RetryBudget retries() {
        return retries;
    }

    /** A short stable identifier-safe key for a run id; see {@link RunPlan#keyOf(String)}. */
    public static String keyOf(String runId) {
        return RunPlan.keyOf(runId);
    }

    public RunPlan plan() {
        return plan;
    }

    public RunCounters counters() {
        return counters;
    }

    public RunResources resources() {
        return resources;
    }

    /** The run's ClickHouse endpoint ({@code sink.connection_ref}), opened on first use and owned by the resources. */
    public ClickHouseEndpoint openClickHouse() {
        return resources.clickhouse(() -> new io.dpone.clickhouse.RetryingClickHouseEndpoint(
            plan.connectors().clickhouse(plan.context().resolve(plan.manifest().sink().connectionRef(),
                ConnectionType.CLICKHOUSE, "sink.connection_ref")), retries));
    }

    /** Shorthand for {@code resources().clickhouse()}. */
    public ClickHouseEndpoint clickhouse() {
        return resources.clickhouse();
    }

    /**
     * From now on the run owns its staging table (named from the target and the run key, in
     * {@code sink.staging.schema}): a failure drops it unless the run published. Returns the name.
     */
    public synchronized String claimStaging() {
        String name = StagingNames.staging(plan.manifest().sink().table().name(), plan.runKey());
        stagingTable = Once.set(stagingTable, name, "staging table");
        return stagingTable;
    }

    /** The staging table's name, or null before {@link #claimStaging()}. */
    public synchronized String stagingTable() {
        return stagingTable;
    }

    /** The run's chunk spool directory (a failure deletes it). */
    public synchronized void spoolDir(Path dir) {
        spoolDir = Once.set(spoolDir, dir, "spool directory");
    }

    public synchronized Path spoolDir() {
        return spoolDir;
    }

    /** Fixes what the route reads and writes: the described source table, the chunk format and the extraction time. */
    public synchronized void described(SourceTable source, ChunkFormat chunkFormat, Instant extracted) {
        table = Once.set(table, source, "source table");
        format = chunkFormat;
        extractedAt = extracted;
    }

    public synchronized SourceTable table() {
        return Once.get(table, "source table");
    }

    public synchronized ChunkFormat format() {
        return Once.get(format, "chunk format");
    }

    /** The extraction time written into every loaded row's metadata columns. */
    public synchronized Instant extractedAt() {
        return Once.get(extractedAt, "extraction time");
    }

    /** The values of the metadata columns every row of this attempt carries ({@link MetadataColumns}). */
    public io.dpone.clickhouse.ClickHouseOperations.LoadStamp loadStamp() {
        return new io.dpone.clickhouse.ClickHouseOperations.LoadStamp(plan.runId(), plan.loadId(), extractedAt());
    }

    /** The target side of the gates, counted part by part as chunks land (null when resuming after publish). */
    public synchronized PartwiseTableStats stagingStats() {
        return stagingStats;
    }

    public synchronized void stagingStats(PartwiseTableStats stats) {
        stagingStats = stats;
    }

    /** The embedded target's merges, paused while this run replaces it (null when nothing was paused). */
    public synchronized ReplacedGenerationMerges replacedMerges() {
        return replacedMerges;
    }

    public synchronized void replacedMerges(ReplacedGenerationMerges merges) {
        replacedMerges = merges;
    }

    /** A chunk reached the load (or upload) step: the first one records {@code first_chunk} since the run started. */
    public void chunkReached() {
        if (counters.chunks() == 0) {
            counters.firstChunk(java.time.Duration.between(plan.startedAt(), Instant.now()).toMillis());
        }
    }

    /** After a chunk landed: the gates' target side counts the new part(s) now, while the producer reads on. */
    public void countLoadedChunk() {
        PartwiseTableStats stats = stagingStats();
        if (stats != null) {
            long t0 = System.nanoTime();
            stats.countNewParts();
            counters.addStep("dq", t0);
        }
    }

    /** The source side of the gates, once the source is read (null before, and when resuming after publish). */
    public synchronized SourceStats sourceStats() {
        return sourceStats;
    }

    public synchronized void sourceStats(SourceStats stats) {
        sourceStats = stats;
    }

    /** Extra settings of this run's pulls from object storage, resolved against the server at the first pull. */
    public synchronized java.util.Map<String, String> pullReadSettings(
            java.util.function.Supplier<java.util.Map<String, String>> resolve) {
        if (pullReadSettings == null) {
            pullReadSettings = resolve.get();
        }
        return pullReadSettings;
    }

    public synchronized void addGate(GateResult gate) {
        gates.add(gate);
    }

    public synchronized List<GateResult> gates() {
        return List.copyOf(gates);
    }

    /** A fact the report states that is neither a gate nor a blocker (e.g. how the source was read). */
    public synchronized void addNote(String note) {
        notes.add(note);
    }

    public synchronized List<String> notes() {
        return List.copyOf(notes);
    }

    /** A capability probe ran (or was skipped, with why): the run report and the certification evidence list it. */
    public synchronized void addProbe(ProbeResult probe) {
        probes.add(probe);
    }

    public synchronized List<ProbeResult> probes() {
        return List.copyOf(probes);
    }

    /** The staging table is now the target (or, on a resume, already was). */
    public synchronized void markPublished() {
        published = true;
    }

    public synchronized boolean published() {
        return published;
    }

    /** A previous attempt of this run id already published: only its cleanup can be outstanding. */
    /** This attempt resumes the staging table an earlier attempt of the run left (see {@link StagingResume}). */
    synchronized void keptStaging(StagingResume.Kept kept) {
        keptStaging = Once.set(keptStaging, kept, "kept staging");
    }

    /** The leftover staging table this attempt resumes, or null when it creates its own (or has not decided yet). */
    synchronized StagingResume.Kept keptStaging() {
        return keptStaging;
    }

    /** The report's {@code resumed_staging} block, or null when the staging table was created by this attempt. */
    public synchronized RunReport.ResumedStaging resumedStaging() {
        return keptStaging == null ? null : new RunReport.ResumedStaging(keptStaging.rows(), keptStaging.inserts());
    }

    public synchronized void markResumedAfterPublish() {
        resumedAfterPublish = true;
        published = true;
    }

    public synchronized boolean resumedAfterPublish() {
        return resumedAfterPublish;
    }
}
