package io.dpone.camel;

/**
 * Exchange property names of the {@code full_refresh} route, shared by its YAML and the steps of the packages above
 * (the run in {@code route}, the CDC hand-over in {@code cdc.handover}), which pass each other only these.
 */
public final class FullRefreshProperties {
    /** The {@link RunRequest}. */
    public static final String REQUEST = "dponeRequest";
    /** The caller's progress listener ({@code io.dpone.route.ProgressListener}). */
    public static final String PROGRESS = "dponeProgress";
    /** {@code cluster} or {@code local}: the {@code publication} choice reads it. */
    public static final String PUBLICATION = "dponePublication";
    /** The transfer route the run goes through ({@code toD}). */
    public static final String TRANSFER_ROUTE = "dponeTransferRoute";
    /** The CDC stream position read before the snapshot (a String), when the run hands over. */
    public static final String HANDOVER_POSITION = "dponeHandOverPosition";
    /** Whether the run passed (a Boolean, set once its report exists). */
    public static final String RUN_PASSED = "dponeRunPassed";
    /** The hand-over's note for the report, after it committed. */
    public static final String HANDOVER_NOTE = "dponeHandOverNote";
    /** The hand-over's blockers (a {@code List<Blocker>}), when it failed after a durable publication. */
    public static final String HANDOVER_BLOCKERS = "dponeHandOverBlockers";

    private FullRefreshProperties() {
    }
}
