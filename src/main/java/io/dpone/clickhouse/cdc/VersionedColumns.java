package io.dpone.clickhouse.cdc;

/**
 * The metadata columns of a CDC log that incremental serving reads, and the deleted flag its versioned table adds:
 * one place for the names the statements of {@link LogVersions}, {@link VersionedTable}, {@link VersionedCompaction}
 * and {@link ServingView} use and the materializer composes its column lists from.
 */
public final class VersionedColumns {
    /** The SHA-256 of a row's unique keys (what identifies a key when one of them is Nullable). */
    public static final String KEY_HASH = "dpone_cdc_unique_key_hash";
    /** {@code insert}, {@code update}, {@code update_before}, {@code delete} or {@code snapshot}. */
    public static final String OPERATION = "dpone_cdc_operation";
    /** The change's version, a UInt256 that orders every change of the log. */
    public static final String VERSION = "dpone_cdc_version";
    /** The change's commit time at the source. */
    public static final String COMMIT_TIME = "dpone_cdc_commit_time";
    /** The versioned table's flag: 1 when the key's change is a delete. */
    public static final String DELETED = "dpone_cdc_deleted";

    private VersionedColumns() {
    }
}
