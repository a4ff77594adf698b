package io.dpone.cdc.mssql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.Map;
import org.h2.tools.SimpleResultSet;

/**
 * SQL Server Change Tracking emulated in H2 for {@code dbo.orders}. H2 cannot parse
 * {@code CHANGETABLE(CHANGES [dbo].[orders], ?)} (the {@code CHANGES} keyword inside a call), so the reader's one
 * dialect hook, {@link ChangeTrackingSql}, is mapped by {@link #DIALECT} to the table function
 * {@code ct_changes(CAST(? AS BIGINT), '<schema>.<table>')}; the rest of the reader's SQL runs unchanged:
 * <ul>
 *   <li>{@code ct_changes(v, t)} returns, like {@code CHANGETABLE(CHANGES t, v)}, one row per key changed after
 *       {@code v} (every tracked change when {@code v} is NULL): {@code SYS_CHANGE_VERSION} = the key's last change,
 *       {@code SYS_CHANGE_OPERATION} = {@code D} if that last change is a delete, {@code I} if the key was first
 *       inserted after {@code v}, else {@code U}; and the primary key {@code order_id}. It reads the tracking log
 *       {@code dbo.ct_log(version, op, order_id)} the fixture writes;</li>
 *   <li>{@code CHANGE_TRACKING_CURRENT_VERSION()}, {@code CHANGE_TRACKING_MIN_VALID_VERSION(object_id)} and
 *       {@code OBJECT_ID(name)} are {@code CREATE ALIAS} functions over {@code dbo.ct_state}; a table that is not
 *       tracked has no object id here, so its min valid version is NULL, as on SQL Server;</li>
 *   <li>{@code sys.change_tracking_databases} (one row: auto cleanup on, {@code CHANGE_RETENTION} 2 days, SQL
 *       Server's default; {@link #retention}) and the permission functions of {@code io.dpone.demo.DemoPermissions}
 *       ({@code HAS_PERMS_BY_NAME}, {@code IS_ROLEMEMBER}), and {@code DB_ID()} (1).</li>
 * </ul>
 */
public final class H2ChangeTrackingFixture implements AutoCloseable {
    public static final ChangeTrackingSql DIALECT = new H2ChangeTrackingSql();

    public final String url;
    public final Connection connection;
    private long version;
    private Long open;

    public H2ChangeTrackingFixture(String url) throws SQLException {
        this.url = url;
        this.connection = DriverManager.getConnection(url, "sa", "");
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE TABLE dbo.orders (" + H2CdcFixture.COLUMNS + ", PRIMARY KEY (order_id))");
            st.execute("CREATE TABLE dbo.ct_log (version BIGINT, op NCHAR(1), order_id INT)");
            st.execute("CREATE TABLE dbo.ct_state (tracked_table NVARCHAR(200), current_version BIGINT, "
                + "min_valid BIGINT)");
            st.execute("INSERT INTO dbo.ct_state VALUES ('[dbo].[orders]', 0, 0)");
            st.execute("CREATE SCHEMA IF NOT EXISTS sys");
            st.execute("CREATE TABLE sys.dm_tran_commit_table (commit_ts BIGINT, commit_time TIMESTAMP)");
            String cls = H2ChangeTrackingFixture.class.getName();
            st.execute("CREATE ALIAS CHANGE_TRACKING_CURRENT_VERSION FOR \"" + cls + ".currentVersion\"");
            st.execute("CREATE ALIAS CHANGE_TRACKING_MIN_VALID_VERSION FOR \"" + cls + ".minValidVersion\"");
            st.execute("CREATE ALIAS OBJECT_ID FOR \"" + cls + ".objectId\"");
            st.execute("CREATE ALIAS ct_changes FOR \"" + cls + ".changes\"");
            // SQL Server's default: auto cleanup on, CHANGE_RETENTION = 2 DAYS
            st.execute("CREATE TABLE sys.change_tracking_databases (database_id INT, is_auto_cleanup_on TINYINT, "
                + "retention_period INT, retention_period_units TINYINT, retention_period_units_desc NVARCHAR(60))");
            st.execute("INSERT INTO sys.change_tracking_databases VALUES (1, 1, 2, 3, 'DAYS')");
            st.execute("CREATE ALIAS DB_ID FOR \"" + cls + ".dbId\"");
            io.dpone.demo.DemoPermissions.install(st);
        }
    }

    /** {@code DB_ID()}: the emulation's one database. */
    public static Integer dbId() {
        return 1;
    }

    public static Long currentVersion(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT current_version FROM dbo.ct_state")) {
            return rs.next() ? rs.getLong(1) : null;
        }
    }

    public static Integer objectId(Connection c, String name) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM dbo.ct_state WHERE tracked_table = ?")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? 1 : null;
            }
        }
    }

    public static Long minValidVersion(Connection c, Integer objectId) throws SQLException {
        if (objectId == null) {
            return null;
        }
        try (ResultSet rs = c.createStatement().executeQuery("SELECT min_valid FROM dbo.ct_state")) {
            return rs.next() ? rs.getLong(1) : null;
        }
    }

    /** The net changes after {@code since} (see the class comment). */
    public static ResultSet changes(Connection c, Long since, String table) throws SQLException {
        SimpleResultSet out = new SimpleResultSet();
        out.addColumn("SYS_CHANGE_VERSION", Types.BIGINT, 19, 0);
        out.addColumn("SYS_CHANGE_OPERATION", Types.NCHAR, 1, 0);
        out.addColumn("order_id", Types.INTEGER, 10, 0);
        if (c.getMetaData().getURL().equals("jdbc:columnlist:connection")) {
            return out;
        }
        Map<Integer, Object[]> net = new LinkedHashMap<>(); // key -> {first op, last op, last version}
        try (PreparedStatement st = c.prepareStatement("SELECT version, op, order_id FROM dbo.ct_log "
            + "WHERE version > ? ORDER BY version")) {
            st.setLong(1, since == null ? -1 : since);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Object[] e = net.computeIfAbsent(rs.getInt(3), k -> new Object[3]);
                    if (e[0] == null) {
                        e[0] = rs.getString(2);
                    }
                    e[1] = rs.getString(2);
                    e[2] = rs.getLong(1);
                }
            }
        }
        net.forEach((key, e) -> out.addRow(e[2], "D".equals(e[1]) ? "D" : "I".equals(e[0]) ? "I" : "U", key));
        return out;
    }

    /** Starts a transaction: the changes until {@link #commit()} share one version. */
    public void begin() {
        open = version + 1;
    }

    public long commit() throws SQLException {
        version = open;
        open = null;
        try (PreparedStatement st = connection.prepareStatement("UPDATE dbo.ct_state SET current_version = ?")) {
            st.setLong(1, version);
            st.executeUpdate();
        }
        try (PreparedStatement st = connection.prepareStatement("INSERT INTO sys.dm_tran_commit_table VALUES (?, ?)")) {
            st.setLong(1, version);
            st.setTimestamp(2, new java.sql.Timestamp(System.currentTimeMillis()));
            st.executeUpdate();
        }
        return version;
    }

    public void insert(Object[] row) throws SQLException {
        change(() -> {
            try (PreparedStatement m = connection.prepareStatement("INSERT INTO dbo.orders VALUES (?, ?, ?, ?, ?)")) {
                for (int i = 0; i < 5; i++) {
                    m.setObject(1 + i, row[i]);
                }
                m.executeUpdate();
            }
        }, "I", (int) row[0]);
    }

    public void update(Object[] row) throws SQLException {
        change(() -> {
            try (PreparedStatement m = connection.prepareStatement("UPDATE dbo.orders SET status = ?, amount = ?, "
                + "note = ?, updated_at = ? WHERE order_id = ?")) {
                for (int i = 1; i < 5; i++) {
                    m.setObject(i, row[i]);
                }
                m.setObject(5, row[0]);
                m.executeUpdate();
            }
        }, "U", (int) row[0]);
    }

    public void delete(int id) throws SQLException {
        change(() -> {
            try (PreparedStatement m = connection.prepareStatement("DELETE FROM dbo.orders WHERE order_id = ?")) {
                m.setInt(1, id);
                m.executeUpdate();
            }
        }, "D", id);
    }

    /** Cleanup: versions at or below {@code minValid} are no longer available. */
    public void cleanup(long minValid) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("UPDATE dbo.ct_state SET min_valid = ?")) {
            st.setLong(1, minValid);
            st.executeUpdate();
        }
    }

    /**
     * {@code ALTER DATABASE ... SET CHANGE_TRACKING (CHANGE_RETENTION = period units, AUTO_CLEANUP = ON|OFF)}:
     * what {@code sys.change_tracking_databases} says ({@code units}: 1 minutes, 2 hours, 3 days).
     */
    public void retention(int period, int units, boolean autoCleanup) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement("UPDATE sys.change_tracking_databases SET "
            + "retention_period = ?, retention_period_units = ?, is_auto_cleanup_on = ?")) {
            st.setInt(1, period);
            st.setInt(2, units);
            st.setInt(3, autoCleanup ? 1 : 0);
            st.executeUpdate();
        }
    }

    /** Turns Change Tracking off for the table. */
    public void disable() throws SQLException {
        connection.createStatement().execute("UPDATE dbo.ct_state SET tracked_table = 'none'");
    }

    private interface Sql {
        void run() throws SQLException;
    }

    private void change(Sql dml, String op, int key) throws SQLException {
        boolean auto = open == null;
        if (auto) {
            begin();
        }
        dml.run();
        try (PreparedStatement st = connection.prepareStatement("INSERT INTO dbo.ct_log VALUES (?, ?, ?)")) {
            st.setLong(1, open);
            st.setString(2, op);
            st.setInt(3, key);
            st.executeUpdate();
        }
        if (auto) {
            commit();
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
