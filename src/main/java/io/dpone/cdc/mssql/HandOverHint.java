package io.dpone.cdc.mssql;

/** The way out of changes cleaned up before a stream read them: a new snapshot handed over to the stream. */
final class HandOverHint {
    private HandOverHint() {
    }

    /** The re-snapshot command for stream {@code pipeline}, said in a resync blocker. */
    static String text(String pipeline) {
        return "Re-snapshot the table through the hand-over: run its batch manifest with a cdc block naming pipeline "
            + pipeline + " (dpone run MANIFEST --run-id NEW_RUN_ID); the snapshot replaces the serving rows and its "
            + "checkpoint replaces this one, and the stream continues after it (docs/cdc.md, \"Resync procedure\")";
    }
}
