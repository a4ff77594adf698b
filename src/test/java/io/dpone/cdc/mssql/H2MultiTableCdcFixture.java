package io.dpone.cdc.mssql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL Server CDC emulated in H2 for several tables of one database ({@code dbo.<table>}, each
 * {@code id INT NOT NULL PRIMARY KEY, label NVARCHAR(40), amount DECIMAL(18,2)}, capture instance
 * {@code dbo_<table>}), as {@link H2CdcFixture} does for one: one LSN counter for the database, so a {@link Txn}
 * touching several tables writes all its change rows at one {@code __$start_lsn}, as SQL Server's capture job does
 * for a transaction spanning tables.
 *
 * <p>Schema changes as an operator makes them, as {@link H2CdcFixture} does for one table: {@link #addColumn} changes a
 * table (its capture instances keep their columns), {@link #enableCaptureInstance} adds a table's second capture
 * instance with its current columns, whose start LSN is the next transaction's, and {@link #disableCaptureInstance}
 * drops one. Every enabled instance of a table whose start LSN is at or below a transaction's LSN gets its change
 * rows; a row array holds the table's columns in order, a shorter one leaves the rest NULL. {@code OBJECT_ID(name)}
 * answers for every table of the database, and {@code cdc.change_tables.source_object_id} holds it.
 */
public final class H2MultiTableCdcFixture implements AutoCloseable {
    static final String COLUMNS = "id INT NOT NULL, label NVARCHAR(40), amount DECIMAL(18,2)";

    public final String url;
    public final Connection connection;
    private long lsnCounter = 0x100;
    private long seqCounter = 0x10;
    /** The columns of each table in table order: name and declared type. */
    private final java.util.Map<String, List<String[]>> tableColumns = new java.util.HashMap<>();
    /** Enabled capture instances in creation order: only their tables' changes get change rows. */
    private final List<Instance> instances = new ArrayList<>();

    private record Instance(String name, String table, byte[] start, List<String[]> columns) {
    }

    public H2MultiTableCdcFixture(String url, String... tables) throws SQLException {
        this.url = url;
        this.connection = DriverManager.getConnection(url, "sa", "");
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE SCHEMA IF NOT EXISTS cdc");
            st.execute("CREATE SCHEMA IF NOT EXISTS sys");
            st.execute("CREATE TABLE cdc.change_tables (capture_instance NVARCHAR(128), start_lsn BINARY(10), "
                + "source_object_id INT, role_name NVARCHAR(128), supports_net_changes BIT, index_name NVARCHAR(128), "
                + "filegroup_name NVARCHAR(128))");
            st.execute("CREATE ALIAS sys.sp_cdc_enable_table FOR \"" + H2MultiTableCdcFixture.class.getName()
                + ".spCdcEnableTable\"");
            st.execute("CREATE ALIAS IF NOT EXISTS OBJECT_ID FOR \"" + H2MultiTableCdcFixture.class.getName()
                + ".objectId\"");
            st.execute("CREATE TABLE cdc.lsn_time_mapping (start_lsn BINARY(10), tran_end_time TIMESTAMP)");
            String fns = io.dpone.demo.DemoCdcFunctions.class.getName();
            st.execute("CREATE ALIAS sys.fn_cdc_map_lsn_to_time FOR \"" + fns + ".mapLsnToTime\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_max_lsn FOR \"" + fns + ".maxLsn\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_min_lsn FOR \"" + fns + ".minLsn\"");
            io.dpone.demo.DemoPermissions.install(st);
            for (String t : tables) {
                st.execute("CREATE TABLE dbo." + t + " (" + COLUMNS + ", PRIMARY KEY (id))");
                columnsOf(t);
                instance(t, "dbo_" + t, H2CdcFixture.lsn(lsnCounter));
            }
        }
        OPEN.put(databaseName(connection), this);
    }

    /** The base columns of a new table. */
    private void columnsOf(String table) {
        List<String[]> cols = new ArrayList<>();
        for (String c : COLUMNS.split(", (?![0-9])")) {
            int sp = c.indexOf(' ');
            cols.add(new String[] {c.substring(0, sp), c.substring(sp + 1).replace(" NOT NULL", "")});
        }
        tableColumns.put(table, cols);
    }

    /** A capture instance of {@code table} with its current columns, starting at {@code start}. */
    private void instance(String table, String name, byte[] start) throws SQLException {
        instance(connection, table, name, start);
    }

    private void instance(Connection connection, String table, String name, byte[] start) throws SQLException {
        List<String[]> cols = new ArrayList<>(tableColumns.get(table));
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE cdc.[" + name + "_CT] ([__$start_lsn] BINARY(10) NOT NULL, "
                + "[__$seqval] BINARY(10) NOT NULL, [__$operation] INT NOT NULL, [__$update_mask] VARBINARY(128), "
                + String.join(", ", cols.stream().map(c -> c[0] + " " + c[1]).toList())
                + ", [__$command_id] INT NOT NULL)");
            st.execute("INSERT INTO cdc.change_tables (capture_instance, start_lsn, source_object_id, "
                + "supports_net_changes) VALUES ('" + name + "', X'" + H2CdcFixture.hex(start) + "', "
                + id("dbo." + table) + ", TRUE)");
        }
        instances.add(new Instance(name, table, start, cols));
    }

    /** The object id of {@code schema.table} (lower-cased): stable, so the catalogue needs no state. */
    private static int id(String name) {
        return (name.toLowerCase(java.util.Locale.ROOT).hashCode() & 0x3fffffff) + 1;
    }

    /** {@code OBJECT_ID(name)}: an id for a table of the database ({@code [schema].[table]} or not), else NULL. */
    public static Integer objectId(Connection c, String name) throws SQLException {
        if (name == null) {
            return null;
        }
        String[] parts = name.replace("[", "").replace("]", "").split("\\.");
        if (parts.length != 2) {
            return null;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM INFORMATION_SCHEMA.TABLES WHERE "
            + "UPPER(TABLE_SCHEMA) = UPPER(?) AND UPPER(TABLE_NAME) = UPPER(?)")) {
            st.setString(1, parts[0]);
            st.setString(2, parts[1]);
            try (java.sql.ResultSet rs = st.executeQuery()) {
                return rs.next() ? id(parts[0] + "." + parts[1]) : null;
            }
        }
    }

    /** The open fixtures by H2 database name, for {@link #spCdcEnableTable} (called inside the database). */
    private static final java.util.Map<String, H2MultiTableCdcFixture> OPEN =
        new java.util.concurrent.ConcurrentHashMap<>();
    /** The capture instances {@code sys.sp_cdc_enable_table} created, in order. */
    public final List<String> enableTableCalls = new java.util.concurrent.CopyOnWriteArrayList<>();

    private static String databaseName(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery("SELECT DATABASE()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * {@code sys.sp_cdc_enable_table} as the JDBC call escape binds it, by position: a capture instance of a table of
     * the fixture with its current columns (as {@link #enableCaptureInstance}); SQL Server's errors for a name that
     * exists (22926) and a third instance (22928).
     */
    public static void spCdcEnableTable(Connection c, String schema, String name, String role, String captureInstance,
                                        Boolean netChanges, String index, String columns, String filegroup)
        throws SQLException {
        H2MultiTableCdcFixture fx = OPEN.get(databaseName(c));
        String table = name == null ? null : name.toLowerCase(java.util.Locale.ROOT);
        if (fx == null || !"dbo".equalsIgnoreCase(schema) || !fx.tableColumns.containsKey(table) || columns != null) {
            throw new SQLException("not a table of the emulation (or a column list)", "42000", 22963);
        }
        if (fx.instances.stream().anyMatch(i -> i.name().equalsIgnoreCase(captureInstance))) {
            throw new SQLException("the capture instance name already exists", "42000", 22926);
        }
        if (fx.instances.stream().filter(i -> i.table().equals(table)).count() >= 2) {
            throw new SQLException("the source table already has two capture instances", "42000", 22928);
        }
        fx.enableTableCalls.add(captureInstance);
        fx.instance(c, table, captureInstance, H2CdcFixture.lsn(fx.lsnCounter + 1));
    }

    /** {@code ALTER TABLE dbo.<table> ADD name type}: its capture instances keep their columns. */
    public void addColumn(String table, String name, String type) throws SQLException {
        connection.createStatement().execute("ALTER TABLE dbo." + table + " ADD COLUMN " + name + " " + type);
        tableColumns.get(table).add(new String[] {name, type});
    }

    /**
     * {@code sys.sp_cdc_enable_table @capture_instance = name} on {@code table}: a change table with its current
     * columns, whose start LSN is the LSN the next transaction gets; returns that start LSN.
     */
    public byte[] enableCaptureInstance(String table, String name) throws SQLException {
        byte[] start = H2CdcFixture.lsn(lsnCounter + 1);
        instance(table, name, start);
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

    /**
     * A table created later, without CDC ({@link #enableCdc} turns it on), with or without a primary key, holding
     * {@code rows} written directly (rows that exist before CDC is enabled have no change rows, as on SQL Server).
     */
    public void createTable(String table, boolean primaryKey, Object[]... rows) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE dbo." + table + " (" + COLUMNS + (primaryKey ? ", PRIMARY KEY (id))" : ")"));
        }
        columnsOf(table);
        for (Object[] row : rows) {
            try (PreparedStatement ins = connection.prepareStatement("INSERT INTO dbo." + table + " VALUES (?, ?, ?)")) {
                for (int i = 0; i < 3; i++) {
                    ins.setObject(1 + i, row[i]);
                }
                ins.executeUpdate();
            }
        }
    }

    /**
     * {@code sys.sp_cdc_enable_table} on {@code table}: its change table and capture instance {@code dbo_<table>},
     * whose start LSN is the next transaction's (changes from then on are captured).
     */
    public void enableCdc(String table) throws SQLException {
        instance(table, "dbo_" + table, H2CdcFixture.lsn(lsnCounter + 1));
    }

    /** A row of any of the tables. */
    public static Object[] row(int id, String label, String amount) {
        return new Object[] {id, label, amount == null ? null : new BigDecimal(amount)};
    }

    /** CDC cleanup of one table: drops its change rows below {@code keepFrom} and moves its low watermark there. */
    public void cleanupBelow(String table, byte[] keepFrom) throws SQLException {
        try (PreparedStatement del = connection.prepareStatement("DELETE FROM cdc.[dbo_" + table + "_CT] WHERE "
            + "[__$start_lsn] < ?");
             PreparedStatement upd = connection.prepareStatement("UPDATE cdc.change_tables SET start_lsn = ? WHERE "
                 + "capture_instance = ?")) {
            del.setBytes(1, keepFrom);
            del.executeUpdate();
            upd.setBytes(1, keepFrom);
            upd.setString(2, "dbo_" + table);
            upd.executeUpdate();
        }
    }

    public Txn txn() {
        return new Txn();
    }

    @Override
    public void close() throws SQLException {
        OPEN.values().remove(this);
        connection.close();
    }

    /** One source transaction over any of the tables; {@link #commit()} writes its change rows at one new LSN. */
    public final class Txn {
        private final List<Object[]> changes = new ArrayList<>(); // {table, operation, row[, after]}

        public Txn insert(String table, Object[] row) {
            changes.add(new Object[] {table, 2, row});
            return this;
        }

        public Txn delete(String table, Object[] row) {
            changes.add(new Object[] {table, 1, row});
            return this;
        }

        /** An in-place update: before image (3) and after image (4). */
        public Txn update(String table, Object[] before, Object[] after) {
            changes.add(new Object[] {table, 3, before, after});
            return this;
        }

        /** The change rows written (an update counts its two images). */
        public int rows() {
            return changes.stream().mapToInt(c -> (int) c[1] == 3 ? 2 : 1).sum();
        }

        public byte[] commit() throws SQLException {
            byte[] lsn = H2CdcFixture.lsn(++lsnCounter);
            int command = 0;
            for (Object[] c : changes) {
                String table = (String) c[0];
                int op = (int) c[1];
                byte[] seqval = new Lsn(BigInteger.valueOf(++seqCounter)).bytes();
                command++;
                if (op == 3) {
                    add(table, lsn, seqval, 3, (Object[]) c[2], command);
                    add(table, lsn, seqval, 4, (Object[]) c[3], command);
                } else {
                    add(table, lsn, seqval, op, (Object[]) c[2], command);
                }
                apply(table, op, op == 3 ? (Object[]) c[3] : (Object[]) c[2]);
            }
            try (PreparedStatement m = connection.prepareStatement("INSERT INTO cdc.lsn_time_mapping VALUES (?, ?)")) {
                m.setBytes(1, lsn);
                m.setTimestamp(2, new java.sql.Timestamp(System.currentTimeMillis()));
                m.executeUpdate();
            }
            return lsn;
        }

        private void add(String table, byte[] lsn, byte[] seqval, int op, Object[] row, int command)
            throws SQLException {
            // a table without a capture instance gets no change rows, as on SQL Server
            for (Instance instance : instances) {
                if (!instance.table().equals(table) || java.util.Arrays.compareUnsigned(instance.start(), lsn) > 0) {
                    continue;
                }
                List<String[]> cols = instance.columns();
                try (PreparedStatement ct = connection.prepareStatement("INSERT INTO cdc.[" + instance.name() + "_CT] "
                    + "([__$start_lsn], [__$seqval], [__$operation], [__$update_mask], " + String.join(", ",
                    cols.stream().map(c -> c[0]).toList()) + ", [__$command_id]) VALUES (?, ?, ?, X'07', "
                    + "?, ".repeat(cols.size()) + "?)")) {
                    ct.setBytes(1, lsn);
                    ct.setBytes(2, seqval);
                    ct.setInt(3, op);
                    for (int i = 0; i < cols.size(); i++) {
                        ct.setObject(4 + i, value(table, row, cols.get(i)[0]));
                    }
                    ct.setInt(4 + cols.size(), command);
                    ct.executeUpdate();
                }
            }
        }

        /** The row's value of {@code table}'s column {@code name}; NULL beyond the row's length. */
        private Object value(String table, Object[] row, String name) {
            List<String[]> cols = tableColumns.get(table);
            for (int i = 0; i < cols.size(); i++) {
                if (cols.get(i)[0].equals(name)) {
                    return i < row.length ? row[i] : null;
                }
            }
            return null;
        }

        private void apply(String table, int op, Object[] row) throws SQLException {
            if (op == 1) {
                try (PreparedStatement d = connection.prepareStatement("DELETE FROM dbo." + table + " WHERE id = ?")) {
                    d.setObject(1, row[0]);
                    d.executeUpdate();
                }
                return;
            }
            List<String> names = tableColumns.get(table).stream().map(c -> c[0]).toList();
            try (PreparedStatement m = connection.prepareStatement("MERGE INTO dbo." + table + " (" + String.join(", ",
                names) + ") KEY (id) VALUES (" + "?, ".repeat(names.size() - 1) + "?)")) {
                for (int i = 0; i < names.size(); i++) {
                    m.setObject(1 + i, i < row.length ? row[i] : null);
                }
                m.executeUpdate();
            }
        }
    }
}
