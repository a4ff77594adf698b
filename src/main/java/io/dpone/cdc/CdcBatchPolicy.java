package io.dpone.cdc;

import io.dpone.error.Blocker;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.ValueOutOfRangeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Policy checks on a batch before anything is applied: every change belongs to the stream's source table and
 * backend, the next offset belongs to the backend and does not move backwards, and a non-empty apply set comes
 * with a next offset, every name and text value is exact UTF-16 ({@link ExactText}). Backend-neutral: no reader or sink is named here.
 */
public final class CdcBatchPolicy {
    private CdcBatchPolicy() {
    }

    public static List<Blocker> check(StreamIdentity stream, CdcBatch batch, Optional<CdcOffset> committed,
                                      IdempotencyResult idempotency) {
        List<Blocker> blockers = new ArrayList<>();
        List<CdcEvent> changes = batch.changes();
        for (int i = 0; i < changes.size(); i++) {
            CdcEvent e = changes.get(i);
            if (!stream.covers(e.sourceSchema(), e.sourceTable())) {
                blockers.add(CdcBlockers.blocker(CdcBlockers.EVENT_STREAM_MISMATCH, "changes[" + i + "].source_table",
                    "change belongs to " + e.sourceSchema() + "." + e.sourceTable() + ", not to the stream's "
                        + stream.sourceTableName(),
                    Map.of("expected", stream.sourceTableName(), "found", e.sourceSchema() + "." + e.sourceTable())));
            }
            Object backend = e.metadata().get("backend");
            if (backend != null && !stream.backend().equals(backend)) {
                blockers.add(CdcBlockers.blocker(CdcBlockers.BACKEND_MISMATCH, "changes[" + i + "].metadata.backend",
                    "change was read by backend " + backend + ", not " + stream.backend(),
                    Map.of("expected", stream.backend(), "found", String.valueOf(backend))));
            }
        }
        Blocker inexact = ExactText.firstLoneSurrogate(stream, changes);
        if (inexact != null) {
            blockers.add(inexact);
        } else {
            typedValues(stream, batch, blockers);
        }
        CdcOffset next = batch.nextOffset();
        if (next != null) {
            if (!stream.backend().equals(next.backend())) {
                blockers.add(CdcBlockers.blocker(CdcBlockers.BACKEND_MISMATCH, "next_offset.backend",
                    "next offset belongs to backend " + next.backend() + ", not " + stream.backend(),
                    Map.of("expected", stream.backend(), "found", next.backend())));
            } else {
                // the checkpoint this offset becomes is refused on load when its token has another backend's shape
                CheckpointRules.tokenShape(stream.backend(), "next_offset.token", next.token()).ifPresent(p ->
                    blockers.add(CdcBlockers.blocker(CdcBlockers.BACKEND_MISMATCH, p.field(),
                        "next offset " + p.rule() + "; nothing was applied", Map.of("expected", stream.backend()))));
            }
            if (next.resume() == null) {
                beyondNextOffset(changes, next, blockers);
            }
            if (committed.isPresent() && next.position().compareTo(committed.get().position()) < 0) {
                blockers.add(CdcBlockers.blocker(CdcBlockers.OFFSET_REGRESSION, "next_offset.token",
                    "next offset " + next.token() + " is below the committed offset " + committed.get().token(),
                    Map.of("committed", committed.get().token(), "next", next.token())));
            }
        } else if (!idempotency.toApply().isEmpty()) {
            blockers.add(CdcBlockers.blocker(CdcBlockers.NEXT_OFFSET_MISSING, "next_offset",
                "the batch has " + idempotency.toApply().size() + " change(s) to apply but no next offset; "
                    + "nothing was applied and the checkpoint was not moved",
                Map.of("changes_to_apply", idempotency.toApply().size())));
        }
        return blockers;
    }

    /**
     * The value checks of {@link #check} alone: with known column types, the first value of {@code batch} that does
     * not fit its column, as {@code cdc_runtime.value_out_of_range}; empty when every value fits (a multi-table
     * stream checks each table's changes against that table's columns, before any table is applied).
     */
    public static List<Blocker> values(StreamIdentity stream, CdcBatch batch) {
        List<Blocker> blockers = new ArrayList<>();
        Blocker inexact = ExactText.firstLoneSurrogate(stream, batch.changes());
        if (inexact != null) {
            blockers.add(inexact);
        } else {
            typedValues(stream, batch, blockers);
        }
        return blockers;
    }

    /**
     * With known column types, every value fits its column exactly (the checks of a full refresh's read); the first
     * value that does not is {@code cdc_runtime.value_out_of_range}, naming the stream, the column and the change's
     * position, never the value.
     */
    private static void typedValues(StreamIdentity stream, CdcBatch batch, List<Blocker> blockers) {
        if (batch.columns().isEmpty()) {
            return;
        }
        Map<String, SourceColumn> byName = new java.util.HashMap<>();
        batch.columns().forEach(c -> byName.put(c.name(), c));
        List<CdcEvent> changes = batch.changes();
        // each value is checked on its own: slices of the batch check at once, the lowest slice's first problem is
        // the batch's first
        for (Blocker first : ParallelSlices.map(changes.size(), (from, to) -> firstMisfit(stream, changes, from, to,
            byName))) {
            if (first != null) {
                blockers.add(first);
                return;
            }
        }
    }

    /** The first value of {@code changes[from, to)} that does not fit its column, as its blocker; null if none. */
    private static Blocker firstMisfit(StreamIdentity stream, List<CdcEvent> changes, int from, int to,
                                       Map<String, SourceColumn> byName) {
        for (int i = from; i < to; i++) {
            CdcEvent e = changes.get(i);
            for (Map.Entry<String, Object> v : e.data().entrySet()) {
                SourceColumn c = byName.get(v.getKey());
                // NULL is checked where it matters, on the rows a materialization publishes: a Change Tracking
                // update read after a later delete of its row carries NULLs in NOT NULL columns, legitimately
                String problem = c == null ? "the column is not one of the batch's columns"
                    : fitProblem(c, v.getValue());
                if (problem != null) {
                    return CdcBlockers.valueOutOfRange(stream, "changes[" + i + "].data." + v.getKey(),
                        v.getKey(), c == null ? null : c.sourceType(), e, problem);
                }
            }
        }
        return null;
    }

    private static String fitProblem(SourceColumn c, Object value) {
        try {
            c.type().coerce(value);
            return null;
        } catch (ValueOutOfRangeException e) {
            return e.getMessage();
        }
    }

    /**
     * Every change lies at or below the next offset: the checkpoint says "every event at or below it is durable",
     * so a change above it would be applied now and then read again as new. (A next offset with a resume point ends
     * inside the position just above its token, whose changes up to the resume point belong to the batch; the
     * reader that wrote the resume point bounds those.)
     */
    private static void beyondNextOffset(List<CdcEvent> changes, CdcOffset next, List<Blocker> blockers) {
        // parsed once: asking for it per change parsed it again each time (the last-parsed cache alternated between
        // the next offset's text and the changes' positions)
        java.math.BigInteger nextPosition = next.position().value();
        for (int i = 0; i < changes.size(); i++) {
            CdcEvent e = changes.get(i);
            if (e.positionValue().value().compareTo(nextPosition) > 0) {
                blockers.add(CdcBlockers.blocker(CdcBlockers.CHANGE_BEYOND_NEXT_OFFSET, "changes[" + i + "].position",
                    "change position " + e.position() + " lies beyond the batch's next offset " + next.token()
                        + "; nothing was applied (export the batch with next_offset at or above its last change)",
                    Map.of("position", e.position(), "next", next.token())));
                return;
            }
        }
    }
}
