package io.dpone.cdc.mssql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL Server CDC emulated in H2 ({@code MODE=MSSQLServer}) for {@code dbo.orders} with the default capture instance
 * {@code dbo_orders}:
 * <ul>
 *   <li>{@code cdc.dbo_orders_CT}: {@code [__$start_lsn] BINARY(10)}, {@code [__$seqval] BINARY(10)},
 *       {@code [__$operation] INT}, {@code [__$update_mask] VARBINARY(128)}, {@code [__$command_id] INT} and the
 *       captured columns, exactly as SQL Server lays it out, indexed as SQL Server clusters it;</li>
 *   <li>{@code cdc.change_tables(capture_instance, start_lsn, source_object_id)} and
 *       {@code cdc.lsn_time_mapping(start_lsn)}, the system tables the real functions read, and
 *       {@code OBJECT_ID(name)} (1 for {@code dbo.orders}, bracketed or not);</li>
 *   <li>{@code sys.fn_cdc_get_min_lsn(capture_instance)} (0x00..00 for an unknown instance, as SQL Server) and
 *       {@code sys.fn_cdc_get_max_lsn()} as {@code CREATE ALIAS} functions over those tables.</li>
 * </ul>
 * A {@link Txn} writes what the capture job writes for one committed transaction: every change row at the same
 * {@code __$start_lsn}, with increasing {@code __$command_id} and the given (or increasing) {@code __$seqval}; an
 * update is a before image (3) and an after image (4) with the same seqval; a primary-key update is a delete (1)
 * and an insert (2). It also applies the change to {@code dbo.orders}.
 *
 * <p>Schema changes as an operator makes them: {@link #addColumn} and {@link #alterColumn} change {@code dbo.orders}
 * (the existing capture instances keep their columns, as SQL Server's do), {@link #enableCaptureInstance} adds a
 * second capture instance with the table's current columns whose start LSN is the next transaction's, and
 * {@link #disableCaptureInstance} drops one. Every enabled instance whose start LSN is at or below a transaction's
 * LSN gets its change rows. A row array holds the table's columns in order; a shorter one leaves the rest NULL.
 */
public final class H2CdcFixture implements AutoCloseable {
    public static final String CAPTURE_INSTANCE = "dbo_orders";
    static final String COLUMNS = "order_id INT NOT NULL, status NVARCHAR(40), amount DECIMAL(18,2), note NVARCHAR(MAX), "
        + "updated_at DATETIME2(7)";

    public final String url;
    public final Connection connection;
    private long lsnCounter = 0x100;
    private long seqCounter = 0x10;
    /** The columns of dbo.orders in table order: name and declared type. */
    private final List<String[]> tableColumns = new ArrayList<>();
    /** Enabled capture instances in creation order: name, start LSN, captured column names. */
    private final List<Instance> instances = new ArrayList<>();

    private record Instance(String name, byte[] start, List<String> columns) {
    }

    public H2CdcFixture(String url) throws SQLException {
        this.url = url;
        this.connection = DriverManager.getConnection(url, "sa", "");
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE SCHEMA IF NOT EXISTS cdc");
            st.execute("CREATE SCHEMA IF NOT EXISTS sys");
            st.execute("CREATE TABLE dbo.orders (" + COLUMNS + ", PRIMARY KEY (order_id))");
            st.execute("CREATE TABLE cdc.[dbo_orders_CT] ([__$start_lsn] BINARY(10) NOT NULL, "
                + "[__$seqval] BINARY(10) NOT NULL, [__$operation] INT NOT NULL, [__$update_mask] VARBINARY(128), "
                + COLUMNS + ", [__$command_id] INT NOT NULL)");
            // SQL Server's change table is clustered on (__$start_lsn, __$command_id, __$seqval, __$operation): the
            // reader's range and order; without it every H2 read scanned and sorted the whole table
            st.execute("CREATE INDEX dbo_orders_CT_clustered ON cdc.[dbo_orders_CT] ([__$start_lsn], [__$command_id], "
                + "[__$seqval], [__$operation])");
            st.execute("CREATE TABLE cdc.change_tables (capture_instance NVARCHAR(128), start_lsn BINARY(10), "
                + "source_object_id INT, role_name NVARCHAR(128), supports_net_changes BIT, index_name NVARCHAR(128), "
                + "filegroup_name NVARCHAR(128))");
            st.execute("CREATE TABLE cdc.lsn_time_mapping (start_lsn BINARY(10), tran_end_time TIMESTAMP)");
            // the same sys.fn_cdc_* functions over the same cdc tables as the demo's CDC emulation
            String fns = io.dpone.demo.DemoCdcFunctions.class.getName();
            st.execute("CREATE ALIAS sys.fn_cdc_map_lsn_to_time FOR \"" + fns + ".mapLsnToTime\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_max_lsn FOR \"" + fns + ".maxLsn\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_min_lsn FOR \"" + fns + ".minLsn\"");
            io.dpone.demo.DemoPermissions.install(st);
            st.execute("CREATE ALIAS IF NOT EXISTS OBJECT_ID FOR \"" + H2CdcFixture.class.getName() + ".objectId\"");
            st.execute("CREATE ALIAS sys.sp_cdc_enable_table FOR \"" + H2CdcFixture.class.getName()
                + ".spCdcEnableTable\"");
            st.execute("INSERT INTO cdc.change_tables (capture_instance, start_lsn, source_object_id, role_name, "
                + "supports_net_changes) VALUES ('" + CAPTURE_INSTANCE + "', X'" + hex(lsn(lsnCounter)) + "', 1, NULL, "
                + "TRUE)");
        }
        for (String c : COLUMNS.split(", (?![0-9])")) {
            int sp = c.indexOf(' ');
            tableColumns.add(new String[] {c.substring(0, sp), c.substring(sp + 1).replace(" NOT NULL", "")});
        }
        instances.add(new Instance(CAPTURE_INSTANCE, lsn(lsnCounter),
            tableColumns.stream().map(c -> c[0]).toList()));
        OPEN.put(databaseName(connection), this);
    }

    /** The open fixtures by H2 database name, for {@link #spCdcEnableTable} (called inside the database). */
    private static final java.util.Map<String, H2CdcFixture> OPEN = new java.util.concurrent.ConcurrentHashMap<>();
    /** The {@code sys.sp_cdc_enable_table} calls the fixture answered, in order: {@code [capture_instance, role_name,
     * supports_net_changes, index_name, captured_column_list, filegroup_name]}. */
    public final List<Object[]> enableTableCalls = new java.util.concurrent.CopyOnWriteArrayList<>();

    private static String databaseName(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT DATABASE()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * {@code sys.sp_cdc_enable_table} as the JDBC call escape binds it, by position ({@code @source_schema,
     * @source_name, @role_name, @capture_instance, @supports_net_changes, @index_name, @captured_column_list,
     * @filegroup_name}): on {@code dbo.orders} only, a new capture instance of the table's current columns (as
     * {@link #enableCaptureInstance}), recorded with the given settings; SQL Server's errors for a name that exists
     * (22926) and a third instance (22928).
     */
    public static void spCdcEnableTable(Connection c, String schema, String name, String role, String captureInstance,
                                        Boolean netChanges, String index, String columns, String filegroup)
        throws SQLException {
        H2CdcFixture fx = OPEN.get(databaseName(c));
        if (fx == null || objectId(schema + "." + name) == null) {
            throw new SQLException("the source table does not exist", "42000", 22963);
        }
        if (fx.instances.stream().anyMatch(i -> i.name().equalsIgnoreCase(captureInstance))) {
            throw new SQLException("the capture instance name already exists", "42000", 22926);
        }
        if (fx.instances.size() >= 2) {
            throw new SQLException("the source table already has two capture instances", "42000", 22928);
        }
        if (columns != null) {
            throw new SQLException("the emulation captures every column (@captured_column_list NULL)", "42000", 0);
        }
        fx.enableTableCalls.add(new Object[] {captureInstance, role, netChanges, index, columns, filegroup});
        fx.enableCaptureInstance(c, captureInstance);
        try (PreparedStatement st = c.prepareStatement("UPDATE cdc.change_tables SET role_name = ?, "
            + "supports_net_changes = ?, index_name = ?, filegroup_name = ? WHERE capture_instance = ?")) {
            st.setString(1, role);
            st.setObject(2, netChanges);
            st.setString(3, index);
            st.setString(4, filegroup);
            st.setString(5, captureInstance);
            st.executeUpdate();
        }
    }

    /** {@code OBJECT_ID(name)}: 1 for dbo.orders (bracketed or not, any case), NULL for anything else. */
    public static Integer objectId(String name) {
        return name != null && name.replace("[", "").replace("]", "").equalsIgnoreCase("dbo.orders") ? 1 : null;
    }

    /** {@code ALTER TABLE dbo.orders ADD name type}: the capture instances keep their columns. */
    public void addColumn(String name, String type) throws SQLException {
        connection.createStatement().execute("ALTER TABLE dbo.orders ADD COLUMN " + name + " " + type);
        tableColumns.add(new String[] {name, type});
    }

    /** {@code ALTER TABLE dbo.orders ALTER COLUMN name type}: the capture instances keep their columns' types. */
    public void alterColumn(String name, String type) throws SQLException {
        connection.createStatement().execute("ALTER TABLE dbo.orders ALTER COLUMN " + name + " " + type);
        tableColumns.stream().filter(c -> c[0].equals(name)).forEach(c -> c[1] = type);
    }

    /** {@code ALTER TABLE dbo.orders DROP COLUMN name}: later row arrays no longer hold it. */
    public void dropColumn(String name) throws SQLException {
        connection.createStatement().execute("ALTER TABLE dbo.orders DROP COLUMN " + name);
        tableColumns.removeIf(c -> c[0].equals(name));
    }

    /**
     * {@code sys.sp_cdc_enable_table @capture_instance = name}: a change table with the table's current columns,
     * whose start LSN is the LSN the next transaction gets; returns that start LSN.
     */
    public byte[] enableCaptureInstance(String name) throws SQLException {
        return enableCaptureInstance(connection, name);
    }

    private byte[] enableCaptureInstance(Connection connection, String name) throws SQLException {
        byte[] start = lsn(lsnCounter + 1);
        String columns = String.join(", ", tableColumns.stream().map(c -> c[0] + " " + c[1]).toList());
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE cdc.[" + name + "_CT] ([__$start_lsn] BINARY(10) NOT NULL, "
                + "[__$seqval] BINARY(10) NOT NULL, [__$operation] INT NOT NULL, [__$update_mask] VARBINARY(128), "
                + columns + ", [__$command_id] INT NOT NULL)");
            st.execute("INSERT INTO cdc.change_tables (capture_instance, start_lsn, source_object_id) VALUES ('" + name
                + "', X'" + hex(start) + "', 1)");
        }
        instances.add(new Instance(name, start, tableColumns.stream().map(c -> c[0]).toList()));
        return start;
    }

    /** {@code sys.sp_cdc_disable_table @capture_instance = name}: the instance and its change table are gone. */
    public void disableCaptureInstance(String name) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("DELETE FROM cdc.change_tables WHERE capture_instance = '" + name + "'");
            st.execute("DROP TABLE cdc.[" + name + "_CT]");
        }
        instances.removeIf(i -> i.name().equals(name));
    }




    /** VLF 0x2A, block {@code n}, slot 1: 10 bytes, numeric order = byte order. */
    public static byte[] lsn(long n) {
        return new Lsn(BigInteger.valueOf(0x2A).shiftLeft(48).add(BigInteger.valueOf(n).shiftLeft(16))
            .add(BigInteger.ONE)).bytes();
    }

    static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }

    public Txn txn() {
        return new Txn();
    }

    /** A row of dbo.orders. */
    public static Object[] row(int id, String status, String amount, String note, String updatedAt) {
        return new Object[] {id, status, amount == null ? null : new BigDecimal(amount), note,
            updatedAt == null ? null : LocalDateTime.parse(updatedAt)};
    }

    /** CDC cleanup: drops change rows below the LSN of {@code keepFrom} and moves the low watermark there. */
    public void cleanupBelow(byte[] keepFrom) throws SQLException {
        for (Instance i : instances) {
            try (PreparedStatement del = connection.prepareStatement(
                "DELETE FROM cdc.[" + i.name() + "_CT] WHERE [__$start_lsn] < ?")) {
                del.setBytes(1, keepFrom);
                del.executeUpdate();
            }
        }
        try (PreparedStatement upd = connection.prepareStatement("UPDATE cdc.change_tables SET start_lsn = ? "
            + "WHERE start_lsn < ?")) {
            upd.setBytes(1, keepFrom);
            upd.setBytes(2, keepFrom);
            upd.executeUpdate();
        }
    }

    /** A row of dbo.orders with the values of columns added after the first five. */
    public static Object[] row(Object[] first, Object... added) {
        Object[] out = java.util.Arrays.copyOf(first, first.length + added.length);
        System.arraycopy(added, 0, out, first.length, added.length);
        return out;
    }

    /** Disables CDC on the table (the capture instance disappears). */
    public void disable() throws SQLException {
        connection.createStatement().execute("DELETE FROM cdc.change_tables");
    }

    @Override
    public void close() throws SQLException {
        OPEN.values().remove(this);
        connection.close();
    }

    /** One source transaction; {@link #commit()} writes its change rows at one new LSN. */
    public final class Txn {
        private final List<Object[]> changes = new ArrayList<>(); // {operation, row, seqval or null}
        private long[] seqvals;

        /** Gives the change rows these seqvals in command order (e.g. interleaved with another transaction). */
        public Txn seqvals(long... values) {
            this.seqvals = values;
            return this;
        }

        public Txn insert(Object[] row) {
            changes.add(new Object[] {2, row});
            return this;
        }

        public Txn delete(Object[] row) {
            changes.add(new Object[] {1, row});
            return this;
        }

        /** An in-place update: before image (3) and after image (4) share command id and seqval. */
        public Txn update(Object[] before, Object[] after) {
            changes.add(new Object[] {3, before, after});
            return this;
        }

        /** A primary-key update: SQL Server logs a delete of the old key and an insert of the new one. */
        public Txn updateKey(Object[] before, Object[] after) {
            return delete(before).insert(after);
        }

        /** Writes the change rows (and applies them to dbo.orders); returns the transaction's LSN. */
        public byte[] commit() throws SQLException {
            byte[] lsn = lsn(++lsnCounter);
            long[] seqs = new long[changes.size()];
            for (int i = 0; i < seqs.length; i++) {
                seqs[i] = seqvals != null ? seqvals[i] : ++seqCounter;
            }
            for (Instance instance : instances) {
                if (java.util.Arrays.compareUnsigned(instance.start(), lsn) > 0) {
                    continue;
                }
                List<String> cols = instance.columns();
                try (PreparedStatement ct = connection.prepareStatement("INSERT INTO cdc.[" + instance.name()
                    + "_CT] ([__$start_lsn], [__$seqval], [__$operation], [__$update_mask], " + String.join(", ", cols)
                    + ", [__$command_id]) VALUES (?, ?, ?, X'1F', " + "?, ".repeat(cols.size()) + "?)")) {
                    int command = 0;
                    for (int i = 0; i < changes.size(); i++) {
                        Object[] c = changes.get(i);
                        byte[] seqval = new Lsn(BigInteger.valueOf(seqs[i])).bytes();
                        command++;
                        int op = (int) c[0];
                        if (op == 3) {
                            add(ct, cols, lsn, seqval, 3, (Object[]) c[1], command);
                            add(ct, cols, lsn, seqval, 4, (Object[]) c[2], command);
                        } else {
                            add(ct, cols, lsn, seqval, op, (Object[]) c[1], command);
                        }
                    }
                    ct.executeBatch();
                }
            }
            for (Object[] c : changes) {
                int op = (int) c[0];
                apply(op, op == 3 ? (Object[]) c[2] : (Object[]) c[1]);
            }
            try (PreparedStatement m = connection.prepareStatement("INSERT INTO cdc.lsn_time_mapping VALUES (?, ?)")) {
                m.setBytes(1, lsn);
                m.setTimestamp(2, new java.sql.Timestamp(System.currentTimeMillis()));
                m.executeUpdate();
            }
            return lsn;
        }

        private void add(PreparedStatement ct, List<String> cols, byte[] lsn, byte[] seqval, int op, Object[] row,
                         int command) throws SQLException {
            ct.setBytes(1, lsn);
            ct.setBytes(2, seqval);
            ct.setInt(3, op);
            for (int i = 0; i < cols.size(); i++) {
                ct.setObject(4 + i, value(row, cols.get(i)));
            }
            ct.setInt(4 + cols.size(), command);
            ct.addBatch();
        }

        /** The row's value of the table column {@code name}; NULL beyond the row's length. */
        private Object value(Object[] row, String name) {
            for (int i = 0; i < tableColumns.size(); i++) {
                if (tableColumns.get(i)[0].equals(name)) {
                    return i < row.length ? row[i] : null;
                }
            }
            return null;
        }

        private void apply(int op, Object[] row) throws SQLException {
            if (op == 1) {
                try (PreparedStatement d = connection.prepareStatement("DELETE FROM dbo.orders WHERE order_id = ?")) {
                    d.setObject(1, row[0]);
                    d.executeUpdate();
                }
                return;
            }
            List<String> names = tableColumns.stream().map(c -> c[0]).toList();
            try (PreparedStatement m = connection.prepareStatement("MERGE INTO dbo.orders (" + String.join(", ", names)
                + ") KEY (order_id) VALUES (" + "?, ".repeat(names.size() - 1) + "?)")) {
                for (int i = 0; i < names.size(); i++) {
                    m.setObject(1 + i, i < row.length ? row[i] : null);
                }
                m.executeUpdate();
            }
        }
    }
}
