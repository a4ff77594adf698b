package io.dpone.cdc.runtime;

import io.dpone.quality.GateResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A CDC tick's checks as gates, for the status page and the lineage events' data-quality assertions. A tick has no
 * quality gates of its own (the proof against the source is a full refresh's or a promotion bundle's); what it
 * checks on every batch is: its changes were deduplicated against the checkpoint ({@value #IDEMPOTENCY}), every change
 * to apply is in the sink ({@value #SINK_APPLIED}: applied plus already there equals to apply), and the offset moved
 * only after that ({@value #OFFSET_COMMIT}). A check the tick did not reach (a blocker stopped it before) is skipped, never passed.
 */
public final class TickChecks {
    public static final String IDEMPOTENCY = "idempotency";
    public static final String SINK_APPLIED = "sink_applied";
    public static final String OFFSET_COMMIT = "offset_commit";
    /** The checks of every tick, in the order they run. */
    public static final List<String> ALL = List.of(IDEMPOTENCY, SINK_APPLIED, OFFSET_COMMIT);

    private TickChecks() {
    }

    public static List<GateResult> of(CdcRuntimeRunReport r) {
        CdcRuntimeRunReport.Counts c = r.counts() == null ? new CdcRuntimeRunReport.Counts(0, 0, 0, 0, 0, 0)
            : r.counts();
        Map<String, Object> idem = new LinkedHashMap<>();
        idem.put("read", c.read());
        idem.put("duplicates", c.duplicates());
        idem.put("replayed", c.replayed());
        idem.put("to_apply", c.toApply());
        Map<String, Object> sink = new LinkedHashMap<>();
        sink.put("to_apply", c.toApply());
        sink.put("applied", c.applied());
        sink.put("already_in_sink", c.alreadyInSink());
        Map<String, Object> commit = new LinkedHashMap<>();
        commit.put("outcome", r.commitOutcome());
        commit.put("committed", r.committed());
        boolean deduplicated = r.batchId() != null || r.passed();
        boolean applied = r.sinkReceipt() != null || (r.passed() && c.toApply() == 0);
        return List.of(
            gate(IDEMPOTENCY, deduplicated, true, idem),
            gate(SINK_APPLIED, applied, c.applied() + c.alreadyInSink() == c.toApply(), sink),
            gate(OFFSET_COMMIT, true, !"blocked".equals(r.commitOutcome()), commit));
    }

    /** passed or failed when the tick reached the check; skipped (never counted as passed) when it stopped before. */
    private static GateResult gate(String name, boolean reached, boolean ok, Map<String, Object> figures) {
        if (!reached) {
            Map<String, Object> f = new LinkedHashMap<>(figures);
            f.put("reason", "the tick stopped before this check");
            return new GateResult(name, "skipped", f, null);
        }
        return new GateResult(name, ok ? "passed" : "failed", figures, null);
    }
}
