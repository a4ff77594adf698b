package io.dpone.source;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Range bounds from SQL Server's statistics on the primary key: the histogram of its leading column
 * ({@code sys.dm_db_stats_histogram}), read without touching a row. Step {@code j} holds {@code range_rows} rows
 * strictly between the previous step's {@code range_hi_key} and its own, plus {@code equal_rows} rows equal to it; a
 * cut at {@code range_hi_key} therefore has every row of the earlier steps and this step's {@code range_rows} below it.
 * The cuts are prefixes of the key (the leading column): a composite key whose leading column has few values, stale
 * statistics or a histogram too coarse for {@code n} even ranges (largest estimate over 1.5 times the smallest) are
 * left to the key sample.
 */
final class KeyStatistics {
    /** The largest range's estimate over the smallest's beyond which the histogram is not used. */
    static final double MAX_SPREAD = 1.5;

    private KeyStatistics() {
    }

    /**
     * Whether the primary key of the table named {@code quotedName} is its clustered index (only then is a key range
     * one index seek over contiguous pages, rather than a lookup per row or a scan per range); empty when the
     * catalogue cannot say (not SQL Server, no permission).
     */
    static Optional<Boolean> clustered(Connection connection, String quotedName) {
        try (PreparedStatement st = connection.prepareStatement(SqlServerDialect.keyIndexType())) {
            st.setString(1, quotedName);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(rs.getInt(1) == 1) : Optional.empty();
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    /**
     * The bounds for the table named {@code quotedName} ({@code [schema].[table]}); empty when the server has no
     * such statistics, refuses to show them (no permission, an older server, a server that is not SQL Server), or
     * they cannot give even ranges.
     */
    static Optional<KeyBoundaries> read(Connection connection, String quotedName, int n) {
        List<List<Object>> keys = new ArrayList<>();
        List<Long> before = new ArrayList<>();
        long total = 0;
        try (PreparedStatement st = connection.prepareStatement(SqlServerDialect.keyHistogram())) {
            st.setString(1, quotedName);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    long range = Math.round(rs.getDouble(2));
                    long equal = Math.round(rs.getDouble(3));
                    keys.add(List.of(rs.getObject(1)));
                    before.add(total + range);
                    total += range + equal;
                }
            }
        } catch (SQLException | RuntimeException e) {
            return Optional.empty(); // no statistics to read: the caller samples the key
        }
        if (keys.size() < 2 || total == 0) {
            return Optional.empty();
        }
        KeyBoundaries b = KeyBoundaries.choose(keys, before.stream().mapToLong(Long::longValue).toArray(), total, n,
            "the primary key's statistics");
        return b.cuts().size() == n - 1 && b.spread() <= MAX_SPREAD ? Optional.of(b) : Optional.empty();
    }
}
