package io.dpone.route;

/** Deterministic names of run-owned tables: a run can always find, and only ever drops, its own. */
public final class StagingNames {
    public static final String PREFIX = "__dpone_stg__";

    private StagingNames() {
    }

    public static String staging(String table, String runKey) {
        return PREFIX + table + "__" + runKey;
    }

    /** The prefix shared by every staging table of {@code table}, whatever the run. */
    public static String stagingPrefix(String table) {
        return PREFIX + table + "__";
    }
}
