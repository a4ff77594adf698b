package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBlockers;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The stream position a snapshot hands over at, read from the source <em>before</em> the snapshot's first row:
 * {@code sys.fn_cdc_get_max_lsn()} for {@code mssql_cdc}, {@code CHANGE_TRACKING_CURRENT_VERSION()} for
 * {@code mssql_change_tracking}.
 *
 * <p>Why before, and why that is exact: every change at or below the position committed before the snapshot
 * began, so the snapshot holds its effect. A change above it may or may not be in the snapshot (the snapshot reads
 * committed rows while writers go on); the stream replays every one of them from the position, and the
 * materializer keeps per key the row with the highest version, the snapshot's rows ranking just above every
 * change at the position. Replaying an after-image or a delete that the snapshot already saw gives the same row,
 * so no change is lost and none counts twice. For CDC, changes committed but not yet harvested by the capture job
 * get LSNs above the harvested maximum, so they are replayed too. This needs no lock and no snapshot isolation on
 * the source, and it holds for the parallel range reads of a full refresh, which use several connections.
 */
public final class SnapshotBoundary {
    private SnapshotBoundary() {
    }

    /**
     * The position text ({@code 0x} LSN or decimal version) of {@code backend} on {@code source}.
     *
     * @param captureInstance {@code mssql_cdc}: the capture instance; a position below its minimum LSN would read as
     *                        cleaned up, so the position is never below {@code min_lsn - 1} (nothing captured yet)
     */
    public static String read(Connection source, String backend, String captureInstance) {
        try {
            if (SqlServerCdcReader.BACKEND.equals(backend)) {
                Lsn max = ChangeTableSql.lsn(source, ChangeTableSql.MAX_LSN, null);
                Lsn min = ChangeTableSql.lsn(source, ChangeTableSql.MIN_LSN, captureInstance);
                if (min == null || min.isZero()) {
                    throw CdcBlockers.failure(CdcBlockers.SOURCE_NOT_ENABLED, "cdc.capture_instance", "capture "
                        + "instance " + captureInstance + " does not exist (sys.fn_cdc_get_min_lsn returned 0x00)");
                }
                Lsn floor = min.previous();
                return (max == null || max.compareTo(floor) < 0 ? floor : max).hex();
            }
            if (SqlServerChangeTrackingReader.BACKEND.equals(backend)) {
                try (PreparedStatement st = source.prepareStatement(SqlServerChangeTrackingReader.CURRENT_VERSION);
                     ResultSet rs = st.executeQuery()) {
                    long v = rs.next() ? rs.getLong(1) : 0;
                    if (rs.wasNull()) {
                        throw CdcBlockers.failure(CdcBlockers.SOURCE_NOT_ENABLED, "cdc.backend",
                            "Change Tracking is not enabled on the source database "
                                + "(CHANGE_TRACKING_CURRENT_VERSION() is NULL)");
                    }
                    return Long.toString(v);
                }
            }
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "cdc.backend",
                "cannot read the stream position before the snapshot: " + e.getClass().getSimpleName());
        }
        throw CdcBlockers.failure(CdcBlockers.MODE_UNSUPPORTED, "cdc.backend", "no live reader for this backend");
    }
}
