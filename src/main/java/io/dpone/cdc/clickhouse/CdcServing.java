package io.dpone.cdc.clickhouse;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.clickhouse.cdc.ServingVersions;
import java.math.BigInteger;
import java.util.Optional;

/**
 * What a reader of a materialized serving dataset ({@code cdc-verify}) may know about it without reaching into the
 * materializer: which mode published it, its versioned table, the applied version recorded for it, and the version
 * the snapshot hand-over gives rows read from the source at a position.
 */
public final class CdcServing {
    private CdcServing() {
    }

    /** How a serving dataset was published. */
    public record Published(boolean incremental, String deleteMode) {
    }

    /**
     * The mode and delete mode recorded in the target's comment, or empty when the target does not exist or was not
     * published by the materializer.
     */
    public static Optional<Published> published(ClickHouseEndpoint ch, String database, String table) {
        Optional<String> comment = new TableAdmin(ch).comment(database, table);
        if (comment.isEmpty() || !comment.get().startsWith(CdcMaterializer.TARGET_MARKER)) {
            return Optional.empty();
        }
        String c = comment.get();
        String mode = c.contains(" mode=incremental") ? "incremental" : "rebuild";
        String deleteMode = c.contains("delete_mode=tombstone") ? "tombstone" : "exclude_deleted";
        return Optional.of(new Published(mode.equals("incremental"), deleteMode));
    }

    /** The versioned table of an incremental target ({@code <table>__dpone_cdc_versions}). */
    public static String versionsTable(String targetTable) {
        return IncrementalServing.name(targetTable + IncrementalServing.VERSIONS_SUFFIX);
    }

    /**
     * The applied version (decimal text) recorded for {@code targetDataset} in {@code <db>.dpone_cdc_materialized},
     * or empty when none is recorded.
     */
    public static Optional<BigInteger> appliedVersion(ClickHouseEndpoint ch, String database, String targetDataset) {
        if (!new TableAdmin(ch).exists(database, IncrementalServing.STATE_TABLE)) {
            return Optional.empty();
        }
        return new ServingVersions(ch).applied(database, IncrementalServing.STATE_TABLE, targetDataset);
    }

    /**
     * The version of rows read from the source at {@code position} (the hand-over's): just above every change at the
     * position, below every change after it.
     */
    public static BigInteger snapshotVersion(String position) {
        return SnapshotMerge.version(position);
    }

    /** The latest position every version at or below {@code version} covers in full. */
    public static BigInteger coveredPosition(BigInteger version) {
        return version.add(BigInteger.ONE).shiftRight(67).subtract(BigInteger.ONE);
    }
}
