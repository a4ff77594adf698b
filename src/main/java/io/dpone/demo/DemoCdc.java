package io.dpone.demo;

import io.dpone.cdc.mssql.Lsn;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.SplittableRandom;

/**
 * SQL Server CDC on the embedded demo source (H2 in SQL Server mode has no CDC of its own): the capture instance
 * {@code dbo_sales} as SQL Server lays it out ({@code cdc.dbo_sales_CT} with {@code __$start_lsn}, {@code __$seqval},
 * {@code __$operation}, {@code __$command_id}; {@code cdc.change_tables}; {@code cdc.lsn_time_mapping}) and the
 * functions {@code sys.fn_cdc_get_min_lsn}, {@code sys.fn_cdc_get_max_lsn} and {@code sys.fn_cdc_map_lsn_to_time}
 * ({@link DemoCdcFunctions}), with SQL Server's permission functions ({@link DemoPermissions}, which the promotion
 * bundle's {@code source_permissions} check asks), so {@code dpone ops cdc-runtime-run --mode live --backend
 * mssql_cdc} and a snapshot hand-over run on the embedded default exactly as against SQL Server. {@link #changes} writes changes to
 * {@code dbo.sales} the way SQL Server's capture job records them: updates (before and after image), inserts,
 * deletes and primary-key changes (a delete and an insert), each transaction at one new LSN. Only for H2: a real
 * SQL Server enables CDC with {@code sys.sp_cdc_enable_table}.
 */
public final class DemoCdc {
    public static final String CAPTURE_INSTANCE = "dbo_sales";
    /** The first LSN of the capture instance; changes start just above it. */
    static final long START_LSN = 0x100;

    private DemoCdc() {
    }

    /** Creates the emulation on the demo source (dropping an earlier one: its changes belong to the old table). */
    public static void enable(Connection c) throws SQLException {
        requireH2(c);
        String fns = DemoCdcFunctions.class.getName();
        try (Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS cdc");
            st.execute("CREATE SCHEMA IF NOT EXISTS sys");
            st.execute("DROP TABLE IF EXISTS cdc.[dbo_sales_CT]");
            st.execute("DROP TABLE IF EXISTS cdc.change_tables");
            st.execute("DROP TABLE IF EXISTS cdc.lsn_time_mapping");
            st.execute("CREATE TABLE cdc.[dbo_sales_CT] ([__$start_lsn] BINARY(10) NOT NULL, "
                + "[__$seqval] BINARY(10) NOT NULL, [__$operation] INT NOT NULL, [__$update_mask] VARBINARY(128), "
                + "sale_id BIGINT NULL, " + DemoSalesGenerator.COLUMNS.replace(" NOT NULL", " NULL")
                + ", [__$command_id] INT NOT NULL)");
            st.execute("CREATE TABLE cdc.change_tables (capture_instance NVARCHAR(128), start_lsn BINARY(10))");
            st.execute("CREATE TABLE cdc.lsn_time_mapping (start_lsn BINARY(10), tran_end_time TIMESTAMP)");
            st.execute("CREATE ALIAS IF NOT EXISTS sys.fn_cdc_get_max_lsn FOR \"" + fns + ".maxLsn\"");
            st.execute("CREATE ALIAS IF NOT EXISTS sys.fn_cdc_get_min_lsn FOR \"" + fns + ".minLsn\"");
            st.execute("CREATE ALIAS IF NOT EXISTS sys.fn_cdc_map_lsn_to_time FOR \"" + fns + ".mapLsnToTime\"");
            DemoPermissions.install(st);
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO cdc.change_tables VALUES (?, ?)")) {
            ps.setString(1, CAPTURE_INSTANCE);
            ps.setBytes(2, lsn(START_LSN));
            ps.executeUpdate();
        }
    }

    /**
     * Writes {@code count} changes to {@code dbo.sales} in transactions of 1 to 5 changes: 55% updates, 25% inserts,
     * 12% deletes, 8% primary-key changes. Returns the number of transactions.
     */
    public static int changes(Connection c, int count, long seed) throws SQLException {
        requireH2(c);
        SplittableRandom r = new SplittableRandom(seed);
        long lsn;
        long seqval;
        long maxId;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT (SELECT MAX(start_lsn) FROM cdc.lsn_time_mapping), "
                 + "(SELECT COUNT(*) FROM cdc.[dbo_sales_CT]), (SELECT COALESCE(MAX(sale_id), 0) FROM dbo.sales)")) {
            rs.next();
            byte[] last = rs.getBytes(1);
            lsn = last == null ? START_LSN : new BigInteger(1, last).longValueExact();
            seqval = rs.getLong(2);
            maxId = rs.getLong(3);
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_TABLE_MISSING, "--connection",
                "the demo source has no CDC emulation: run dpone demo seed --cdc first");
        }
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        int transactions = 0;
        try {
            for (int done = 0; done < count; transactions++) {
                lsn++;
                int n = Math.min(count - done, 1 + r.nextInt(5));
                for (int i = 0; i < n; i++) {
                    int pick = r.nextInt(100);
                    Long id = pick < 25 ? null : existing(c, r);
                    if (id == null) {
                        insertRow(c, ++maxId, r);
                        capture(c, lsn, ++seqval, 2, maxId, i + 1);
                    } else if (pick < 80) {
                        capture(c, lsn, ++seqval, 3, id, i + 1);
                        update(c, id, r);
                        capture(c, lsn, seqval, 4, id, i + 1);
                    } else if (pick < 92) {
                        capture(c, lsn, ++seqval, 1, id, i + 1);
                        delete(c, id);
                    } else {
                        capture(c, lsn, ++seqval, 1, id, i + 1);
                        moveKey(c, id, ++maxId);
                        capture(c, lsn, ++seqval, 2, maxId, i + 1);
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO cdc.lsn_time_mapping VALUES (?, ?)")) {
                    ps.setBytes(1, lsn(lsn));
                    ps.setTimestamp(2, new Timestamp(System.currentTimeMillis()));
                    ps.executeUpdate();
                }
                c.commit();
                done += n;
            }
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
        return transactions;
    }

    /** A random existing key, or null when the table is empty. */
    private static Long existing(Connection c, SplittableRandom r) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM dbo.sales")) {
            rs.next();
            long rows = rs.getLong(1);
            if (rows == 0) {
                return null;
            }
            try (PreparedStatement ps = c.prepareStatement(
                "SELECT sale_id FROM dbo.sales ORDER BY sale_id OFFSET ? ROWS FETCH NEXT 1 ROWS ONLY")) {
                ps.setLong(1, r.nextLong(rows));
                try (ResultSet k = ps.executeQuery()) {
                    return k.next() ? k.getLong(1) : null;
                }
            }
        }
    }

    private static void capture(Connection c, long lsn, long seqval, int operation, long id, int command)
        throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO cdc.[dbo_sales_CT] ([__$start_lsn], "
            + "[__$seqval], [__$operation], [__$update_mask], [__$command_id], "
            + DemoSalesGenerator.COLUMN_NAMES + ") SELECT ?, ?, ?, X'FF', ?, " + DemoSalesGenerator.COLUMN_NAMES
            + " FROM dbo.sales WHERE sale_id = ?")) {
            ps.setBytes(1, lsn(lsn));
            ps.setBytes(2, lsn(seqval));
            ps.setInt(3, operation);
            ps.setInt(4, command);
            ps.setLong(5, id);
            ps.executeUpdate();
        }
    }

    private static void insertRow(Connection c, long id, SplittableRandom r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo.sales VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
            DemoSalesGenerator.bindRow(ps, id, r);
            ps.executeUpdate();
        }
    }

    private static void update(Connection c, long id, SplittableRandom r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE dbo.sales SET status = ?, amount = ?, note = ? "
            + "WHERE sale_id = ?")) {
            ps.setString(1, r.nextBoolean() ? "shipped" : "returned");
            ps.setBigDecimal(2, BigDecimal.valueOf(r.nextLong(-1_000_000_000L, 1_000_000_000L), 4));
            if (r.nextInt(4) == 0) {
                ps.setNull(3, java.sql.Types.VARCHAR);
            } else {
                ps.setString(3, "changed " + r.nextInt(1000));
            }
            ps.setLong(4, id);
            ps.executeUpdate();
        }
    }

    private static void delete(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM dbo.sales WHERE sale_id = ?")) {
            ps.setLong(1, id);
            ps.executeUpdate();
        }
    }

    private static void moveKey(Connection c, long from, long to) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE dbo.sales SET sale_id = ? WHERE sale_id = ?")) {
            ps.setLong(1, to);
            ps.setLong(2, from);
            ps.executeUpdate();
        }
    }

    /** The 10-byte LSN (or seqval) {@code n}, as the CDC reader reads it. */
    static byte[] lsn(long n) {
        return new Lsn(BigInteger.valueOf(n)).bytes();
    }

    private static void requireH2(Connection c) throws SQLException {
        if (!c.getMetaData().getURL().startsWith("jdbc:h2:")) {
            throw new DponeException(BlockerCode.CDC_MODE_UNSUPPORTED, "--connection", "the CDC emulation is for "
                + "the embedded demo source only; on SQL Server enable CDC with sys.sp_cdc_enable_table");
        }
    }
}
