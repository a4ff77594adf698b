package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcIdempotencyService;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.CdcSinkApplier;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.CdcTickFence;
import io.dpone.cdc.IdempotencyResult;
import io.dpone.cdc.SinkReceipt;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.Blocker;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One CDC runtime tick: the exchange body of the {@code cdc_runtime_tick} route. It carries the stream, the four
 * adapters (reader, idempotency, sink applier, offset store) and what each step found. The steps only call the
 * adapter interfaces, so the route has no backend-specific branch.
 */
public final class CdcTick {
    /**
     * Adapters of one tick; local mode and live mode differ only here. {@code lanes} is set for a multi-table
     * stream (its reader and applier are then the lanes' {@link TableLanes#reader()} and {@link TableLanes#applier()},
     * and the report gives each table's figures), null for a single-table stream.
     */
    public record Adapters(CdcSourceReader reader, CdcIdempotencyService idempotency, CdcSinkApplier applier,
                           CdcOffsetStore offsets, CdcTickFence fence, TableLanes lanes) {
        public Adapters(CdcSourceReader reader, CdcIdempotencyService idempotency, CdcSinkApplier applier,
                        CdcOffsetStore offsets, CdcTickFence fence) {
            this(reader, idempotency, applier, offsets, fence, null);
        }

        /** Adapters without local state to fence (the offset store's compare-and-set is the fence). */
        public Adapters(CdcSourceReader reader, CdcIdempotencyService idempotency, CdcSinkApplier applier,
                        CdcOffsetStore offsets) {
            this(reader, idempotency, applier, offsets, CdcTickFence.NONE);
        }

        public Adapters withFence(CdcTickFence f) {
            return new Adapters(reader, idempotency, applier, offsets, f, lanes);
        }
    }

    public static final int DEFAULT_MAX_EVENTS = 100_000;

    private final String runId;
    private final CdcRunOptions options;
    private final Adapters adapters;
    private final int maxEvents;
    private final Instant createdAt = Instant.now();
    private Instant startedAt;
    private final List<Blocker> blockers = new ArrayList<>();
    private final Map<String, Long> stepMillis = new LinkedHashMap<>();

    // what the steps found: each set once, by its step, through the setters below (as TransferRun's state is)
    private Optional<CdcOffset> offsetBefore;
    private CdcBatch batch;
    private IdempotencyResult idempotency;
    private SinkReceipt receipt;
    private boolean committed;
    /** Milliseconds behind the source after this tick, -1 when unknown. */
    private Long millisBehindSource;
    /** The batch's next offset equals the committed one: nothing to move. */
    private boolean offsetUnchanged;
    /** False when another tick held the fence: this tick must not write into the shared output directory. */
    private boolean ownsOutput = true;
    private CdcRuntimeRunReport report;
    /** The tick's transient-fault retry budget (issue 35); null when the tick has none (no connection to retry). */
    private io.dpone.retry.RetryBudget retries;

    public CdcTick(String runId, CdcRunOptions options, Adapters adapters, int maxEvents) {
        this.runId = runId;
        this.options = options;
        this.adapters = adapters;
        this.maxEvents = maxEvents;
    }

    public String runId() {
        return runId;
    }

    public CdcRunOptions options() {
        return options;
    }

    public StreamIdentity stream() {
        return options.stream();
    }

    public Adapters adapters() {
        return adapters;
    }

    public int maxEvents() {
        return maxEvents;
    }

    /**
     * The retry budget the tick's connections retry under ({@link CdcRunOptions#retry()}); its tally is the report's
     * {@code retries}. Returns this tick.
     */
    public CdcTick retries(io.dpone.retry.RetryBudget budget) {
        retries = budget;
        return this;
    }

    /** The tick's retry budget, null when it has none. */
    io.dpone.retry.RetryBudget retries() {
        return retries;
    }

    /** When the tick's first step began (when it was built, until then). */
    public Instant startedAt() {
        return startedAt != null ? startedAt : createdAt;
    }

    /** When the command built the tick (before the route context and connections were ready). */
    Instant createdAt() {
        return createdAt;
    }

    void markStarted() {
        if (startedAt == null) {
            startedAt = Instant.now();
        }
    }

    public List<Blocker> blockers() {
        return List.copyOf(blockers);
    }

    /** True once a blocker exists: the remaining steps skip, only the report runs. */
    public boolean halted() {
        return !blockers.isEmpty();
    }

    public boolean committed() {
        return committed;
    }

    /** The report of this tick, once the report step (or the runner, after a failure) has built it. */
    public CdcRuntimeRunReport report() {
        return report;
    }

    /** Throws unless {@code current} is unset: each finding is set once, by the step that makes it. */
    private static void once(Object current, String what) {
        if (current != null) {
            throw new IllegalStateException("the tick's " + what + " is set once, by its step");
        }
    }

    /** Step load_offset: the checkpoint's offset (empty: none yet). */
    void offsetLoaded(Optional<CdcOffset> offset) {
        once(offsetBefore, "offset before");
        offsetBefore = offset;
    }

    /** The offset the checkpoint held when the tick began (empty before load_offset ran, or when there is none). */
    Optional<CdcOffset> offsetBefore() {
        return offsetBefore == null ? Optional.empty() : offsetBefore;
    }

    /** Step read_batch: what the reader returned. */
    void batchRead(CdcBatch b) {
        once(batch, "batch");
        batch = b;
    }

    /** The batch read, or null before read_batch ran. */
    CdcBatch batch() {
        return batch;
    }

    /** Step idempotency: the identity check's result. */
    void idempotencyChecked(IdempotencyResult r) {
        once(idempotency, "idempotency result");
        idempotency = r;
    }

    IdempotencyResult idempotency() {
        return idempotency;
    }

    /** Step apply: the sink's receipt. */
    void applied(SinkReceipt r) {
        once(receipt, "sink receipt");
        receipt = r;
    }

    SinkReceipt receipt() {
        return receipt;
    }

    /** Step commit_offset: the batch's next offset is the checkpoint now. */
    void offsetCommitted() {
        if (committed || offsetUnchanged) {
            throw new IllegalStateException("the tick's commit outcome is set once, by commit_offset");
        }
        committed = true;
    }

    /** Step commit_offset: the batch's next offset is the one already committed; nothing moved. */
    void offsetAlreadyCommitted() {
        if (committed || offsetUnchanged) {
            throw new IllegalStateException("the tick's commit outcome is set once, by commit_offset");
        }
        offsetUnchanged = true;
    }

    boolean offsetUnchanged() {
        return offsetUnchanged;
    }

    /** Step report: how far behind the source the stream is after this tick (-1: unknown). */
    void lagMeasured(long millis) {
        once(millisBehindSource, "lag");
        millisBehindSource = millis;
    }

    long millisBehindSource() {
        return millisBehindSource == null ? -1 : millisBehindSource;
    }

    /** The fence was another tick's: this tick writes nothing into the shared output directory. */
    void fenceLost() {
        ownsOutput = false;
    }

    boolean ownsOutput() {
        return ownsOutput;
    }

    /** The report, once built (by the report step, or by the runner after a failure). */
    void reported(CdcRuntimeRunReport r) {
        once(report, "report");
        report = r;
    }

    void block(List<Blocker> more) {
        blockers.addAll(more);
    }

    void timed(String step, long millis) {
        stepMillis.merge(step, millis, Long::sum);
    }

    Map<String, Long> stepMillis() {
        return Map.copyOf(stepMillis);
    }

    /** The offset the checkpoint holds after this tick. */
    Optional<CdcOffset> offsetAfter() {
        return committed ? Optional.of(batch.nextOffset()) : offsetBefore();
    }

    Path outputDir() {
        return options.outputDir();
    }
}
