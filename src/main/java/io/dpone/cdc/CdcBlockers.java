package io.dpone.cdc;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.util.List;
import java.util.Map;

/**
 * Blocker codes of the CDC runtime. The first four are the spec's defaults; the others are typed input and policy
 * errors in the same dotted style. (To be mirrored in {@code io.dpone.error.BlockerCode} and
 * {@code docs/blockers.md}.)
 */
public final class CdcBlockers {
    /** Event identity check found duplicate CDC events before sink apply. */
    public static final String DUPLICATE_EVENTS = "cdc_runtime.duplicate_events";
    /** Sink apply failed without a more specific blocker. */
    public static final String SINK_APPLY_FAILED = "cdc_runtime.sink_apply_failed";
    /** Sink apply did not return a durable receipt. */
    public static final String SINK_NOT_DURABLE = "cdc_runtime.sink_not_durable";
    /** A non-empty batch to apply did not provide the next durable offset. */
    public static final String NEXT_OFFSET_MISSING = "cdc_runtime.next_offset_missing";
    /** The events JSON is missing, not UTF-8, or not JSON. */
    public static final String EVENTS_UNREADABLE = "cdc_runtime.events_unreadable";
    /** The events JSON is JSON but breaks the events contract (the subject names the field). */
    public static final String EVENTS_INVALID = "cdc_runtime.events_invalid";
    /** The checkpoint JSON exists but cannot be read as a dpone CDC checkpoint. */
    public static final String CHECKPOINT_INVALID = "cdc_runtime.checkpoint_invalid";
    /** The checkpoint belongs to another stream (pipeline, backend, source, target or unique keys differ). */
    public static final String CHECKPOINT_STREAM_MISMATCH = "cdc_runtime.checkpoint_stream_mismatch";
    /** A change in the batch belongs to another source table. */
    public static final String EVENT_STREAM_MISMATCH = "cdc_runtime.event_stream_mismatch";
    /** The batch's next offset or a change's metadata names another CDC backend. */
    public static final String BACKEND_MISMATCH = "cdc_runtime.backend_mismatch";
    /** The batch's next offset is below the committed offset. */
    public static final String OFFSET_REGRESSION = "cdc_runtime.offset_regression";
    /** The requested mode or connection-backed adapter is not available in this build. */
    public static final String MODE_UNSUPPORTED = "cdc_runtime.mode_unsupported";
    /** A command-line value is invalid (identifier, dataset, or an option that conflicts with the mode). */
    public static final String INVALID_ARGUMENT = "cdc_runtime.invalid_argument";
    /** Live mode: the source table has no SQL Server CDC capture instance, or Change Tracking is not enabled on it. */
    public static final String SOURCE_NOT_ENABLED = "cdc_runtime.source_not_enabled";
    /** Live mode: the committed LSN is below the capture instance's minimum LSN (changes were cleaned up). */
    public static final String CDC_RESYNC_REQUIRED = "cdc_runtime.cdc_resync_required";
    /** Live mode: the saved version is below CHANGE_TRACKING_MIN_VALID_VERSION (changes were cleaned up). */
    public static final String CHANGE_TRACKING_RESYNC_REQUIRED = "cdc_runtime.change_tracking_resync_required";

    /** Every code, in documentation order. */
    public static final List<String> ALL = List.of(DUPLICATE_EVENTS, SINK_APPLY_FAILED, SINK_NOT_DURABLE,
        NEXT_OFFSET_MISSING, EVENTS_UNREADABLE, EVENTS_INVALID, CHECKPOINT_INVALID, CHECKPOINT_STREAM_MISMATCH,
        EVENT_STREAM_MISMATCH, BACKEND_MISMATCH, OFFSET_REGRESSION, MODE_UNSUPPORTED, INVALID_ARGUMENT,
        SOURCE_NOT_ENABLED, CDC_RESYNC_REQUIRED, CHANGE_TRACKING_RESYNC_REQUIRED);

    private CdcBlockers() {
    }

    public static Blocker blocker(String code, String subject, String message) {
        return new Blocker(code, subject, message, Map.of());
    }

    public static Blocker blocker(String code, String subject, String message, Map<String, Object> details) {
        return new Blocker(code, subject, message, details);
    }

    public static DponeException failure(String code, String subject, String message) {
        return new DponeException(blocker(code, subject, message));
    }
}
