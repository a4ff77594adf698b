package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcPosition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.OptionalLong;

/**
 * The lag of a live stream in milliseconds: 0 once the checkpoint has reached the high watermark, otherwise the
 * source's {@code CURRENT_TIMESTAMP} minus the commit time of the committed position, both read in one statement
 * on the source (one clock, the server's). A statement that fails (no permission on the commit-time view, say)
 * leaves the lag unknown; it never fails a tick.
 */
final class SourceLag {
    private SourceLag() {
    }

    /**
     * @param commitTimeSql {@code SELECT <commit time of ?>, CURRENT_TIMESTAMP}, the position bound as the one
     *                      parameter by {@code bind}
     */
    static OptionalLong of(Connection c, CdcOffset committed, String highWatermark, String commitTimeSql,
                           Binder bind) {
        if (committed == null) {
            return OptionalLong.empty();
        }
        if (highWatermark != null && committed.resume() == null
            && CdcPosition.compare(committed.token(), highWatermark) >= 0) {
            return OptionalLong.of(0);
        }
        try (PreparedStatement st = c.prepareStatement(commitTimeSql)) {
            bind.bind(st, committed.token());
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return OptionalLong.empty();
                }
                Timestamp at = rs.getTimestamp(1);
                Timestamp now = rs.getTimestamp(2);
                return at == null || now == null ? OptionalLong.empty()
                    : OptionalLong.of(Math.max(0, now.getTime() - at.getTime()));
            }
        } catch (SQLException e) {
            return OptionalLong.empty();
        }
    }

    /** Binds the committed position to the statement's parameter. */
    interface Binder {
        void bind(PreparedStatement st, String position) throws SQLException;
    }
}
