package io.dpone.cdc;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.List;
import java.util.Map;

/**
 * Blocker codes of the CDC runtime under the names the CDC code uses; each is its {@link io.dpone.error.BlockerCode}
 * (the one registry, kept in step with {@code docs/blockers.md}). The first four are the spec's defaults; the others
 * are typed input and policy errors in the same dotted style.
 */
public final class CdcBlockers {
    /** Event identity check found duplicate CDC events before sink apply. */
    public static final String DUPLICATE_EVENTS = BlockerCode.CDC_DUPLICATE_EVENTS.code();
    /** Sink apply failed without a more specific blocker. */
    public static final String SINK_APPLY_FAILED = BlockerCode.CDC_SINK_APPLY_FAILED.code();
    /** Sink apply did not return a durable receipt. */
    public static final String SINK_NOT_DURABLE = BlockerCode.CDC_SINK_NOT_DURABLE.code();
    /** A non-empty batch to apply did not provide the next durable offset. */
    public static final String NEXT_OFFSET_MISSING = BlockerCode.CDC_NEXT_OFFSET_MISSING.code();
    /** The events JSON is missing, not UTF-8, or not JSON. */
    public static final String EVENTS_UNREADABLE = BlockerCode.CDC_EVENTS_UNREADABLE.code();
    /** The events JSON is JSON but breaks the events contract (the subject names the field). */
    public static final String EVENTS_INVALID = BlockerCode.CDC_EVENTS_INVALID.code();
    /** The checkpoint JSON exists but cannot be read as a dpone CDC checkpoint. */
    public static final String CHECKPOINT_INVALID = BlockerCode.CDC_CHECKPOINT_INVALID.code();
    /** The checkpoint belongs to another stream (pipeline, backend, source, target or unique keys differ). */
    public static final String CHECKPOINT_STREAM_MISMATCH = BlockerCode.CDC_CHECKPOINT_STREAM_MISMATCH.code();
    /** A change in the batch belongs to another source table. */
    public static final String EVENT_STREAM_MISMATCH = BlockerCode.CDC_EVENT_STREAM_MISMATCH.code();
    /** The batch's next offset or a change's metadata names another CDC backend. */
    public static final String BACKEND_MISMATCH = BlockerCode.CDC_BACKEND_MISMATCH.code();
    /** The batch's next offset is below the committed offset. */
    public static final String OFFSET_REGRESSION = BlockerCode.CDC_OFFSET_REGRESSION.code();
    /** The requested mode or connection-backed adapter is not available in this build. */
    public static final String MODE_UNSUPPORTED = BlockerCode.CDC_MODE_UNSUPPORTED.code();
    /** A command-line value is invalid (identifier, dataset, or an option that conflicts with the mode). */
    public static final String INVALID_ARGUMENT = BlockerCode.CDC_INVALID_ARGUMENT.code();
    /** Live mode: the source table has no SQL Server CDC capture instance, or Change Tracking is not enabled on it. */
    public static final String SOURCE_NOT_ENABLED = BlockerCode.CDC_SOURCE_NOT_ENABLED.code();
    /** Live mode: the committed LSN is below the capture instance's minimum LSN (changes were cleaned up). */
    public static final String CDC_RESYNC_REQUIRED = BlockerCode.CDC_RESYNC_REQUIRED.code();
    /** Live mode: the saved version is below CHANGE_TRACKING_MIN_VALID_VERSION (changes were cleaned up). */
    public static final String CHANGE_TRACKING_RESYNC_REQUIRED = BlockerCode.CDC_CHANGE_TRACKING_RESYNC_REQUIRED.code();
    /** Another tick holds the stream, or committed since this tick loaded its offset: this tick committed nothing. */
    public static final String OFFSET_CONFLICT = BlockerCode.CDC_OFFSET_CONFLICT.code();
    /** A change's position lies beyond the batch's next offset: committing it would skip it on a replay. */
    public static final String CHANGE_BEYOND_NEXT_OFFSET = BlockerCode.CDC_CHANGE_BEYOND_NEXT_OFFSET.code();
    /** The events file is larger than its bound (1 GiB); refused unread. */
    public static final String EVENTS_TOO_LARGE = BlockerCode.CDC_EVENTS_TOO_LARGE.code();
    /** The checkpoint file is larger than its bound (1 MiB); refused unread, never overwritten. */
    public static final String CHECKPOINT_TOO_LARGE = BlockerCode.CDC_CHECKPOINT_TOO_LARGE.code();
    /** A change's value does not fit its column's declared type exactly. */
    public static final String VALUE_OUT_OF_RANGE = BlockerCode.CDC_VALUE_OUT_OF_RANGE.code();
    /** The batch's columns differ from the ones the typed CDC log recorded (dropped, retyped, non-null added). */
    public static final String SCHEMA_CHANGED = BlockerCode.CDC_SCHEMA_CHANGED.code();
    /**
     * A table a multi-table stream's patterns matched cannot stream (no primary key, no capture instance, a log name
     * the target template cannot form); {@code details.table} names it, {@code details.reason} says why.
     */
    public static final String TABLE_NOT_STREAMABLE = BlockerCode.CDC_TABLE_NOT_STREAMABLE.code();

    /** Every code, in documentation order. */
    public static final List<String> ALL = List.of(DUPLICATE_EVENTS, SINK_APPLY_FAILED, SINK_NOT_DURABLE,
        NEXT_OFFSET_MISSING, EVENTS_UNREADABLE, EVENTS_INVALID, CHECKPOINT_INVALID, CHECKPOINT_STREAM_MISMATCH,
        EVENT_STREAM_MISMATCH, BACKEND_MISMATCH, OFFSET_REGRESSION, MODE_UNSUPPORTED, INVALID_ARGUMENT,
        SOURCE_NOT_ENABLED, CDC_RESYNC_REQUIRED, CHANGE_TRACKING_RESYNC_REQUIRED, OFFSET_CONFLICT,
        CHANGE_BEYOND_NEXT_OFFSET, VALUE_OUT_OF_RANGE, SCHEMA_CHANGED, EVENTS_TOO_LARGE, CHECKPOINT_TOO_LARGE,
        TABLE_NOT_STREAMABLE);

    private CdcBlockers() {
    }

    public static Blocker blocker(String code, String subject, String message) {
        return new Blocker(code, subject, message, Map.of());
    }

    public static Blocker blocker(String code, String subject, String message, Map<String, Object> details) {
        return new Blocker(code, subject, message, details);
    }

    /**
     * {@code cdc_runtime.value_out_of_range} of change {@code e}'s value in {@code column} (source type {@code type},
     * null when the column is not declared): names the stream, the column, its type and the change's position, never
     * the value.
     */
    public static Blocker valueOutOfRange(StreamIdentity stream, String subject, String column, String type,
                                          CdcEvent e, String problem) {
        Map<String, Object> details = new java.util.LinkedHashMap<>();
        details.put("stream", stream.pipelineName());
        details.put("column", column);
        details.put("type", type == null ? "unknown" : type);
        details.put("position", e.position());
        details.put("sequence", e.sequence());
        return blocker(VALUE_OUT_OF_RANGE, subject, "stream " + stream.pipelineName() + ", column " + column
            + (type == null ? "" : " (" + type + ")") + ", position " + e.position() + ": " + problem
            + "; nothing was applied", details);
    }

    public static DponeException failure(String code, String subject, String message) {
        return new DponeException(blocker(code, subject, message));
    }
}
