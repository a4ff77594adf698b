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
 */
public final class H2MultiTableCdcFixture implements AutoCloseable {
    static final String COLUMNS = "id INT NOT NULL, label NVARCHAR(40), amount DECIMAL(18,2)";

    public final String url;
    public final Connection connection;
    private long lsnCounter = 0x100;
    private long seqCounter = 0x10;
    /** The tables with a capture instance: only their changes get change rows. */
    private final java.util.Set<String> enabled = new java.util.HashSet<>();

    public H2MultiTableCdcFixture(String url, String... tables) throws SQLException {
        this.url = url;
        this.connection = DriverManager.getConnection(url, "sa", "");
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE SCHEMA IF NOT EXISTS cdc");
            st.execute("CREATE SCHEMA IF NOT EXISTS sys");
            st.execute("CREATE TABLE cdc.change_tables (capture_instance NVARCHAR(128), start_lsn BINARY(10))");
            st.execute("CREATE TABLE cdc.lsn_time_mapping (start_lsn BINARY(10), tran_end_time TIMESTAMP)");
            String fns = io.dpone.demo.DemoCdcFunctions.class.getName();
            st.execute("CREATE ALIAS sys.fn_cdc_map_lsn_to_time FOR \"" + fns + ".mapLsnToTime\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_max_lsn FOR \"" + fns + ".maxLsn\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_min_lsn FOR \"" + fns + ".minLsn\"");
            io.dpone.demo.DemoPermissions.install(st);
            for (String t : tables) {
                st.execute("CREATE TABLE dbo." + t + " (" + COLUMNS + ", PRIMARY KEY (id))");
                st.execute("CREATE TABLE cdc.[dbo_" + t + "_CT] ([__$start_lsn] BINARY(10) NOT NULL, "
                    + "[__$seqval] BINARY(10) NOT NULL, [__$operation] INT NOT NULL, [__$update_mask] VARBINARY(128), "
                    + COLUMNS + ", [__$command_id] INT NOT NULL)");
                st.execute("INSERT INTO cdc.change_tables VALUES ('dbo_" + t + "', X'"
                    + H2CdcFixture.hex(H2CdcFixture.lsn(lsnCounter)) + "')");
                enabled.add(t);
            }
        }
    }

    /**
     * A table created later, without CDC ({@link #enableCdc} turns it on), with or without a primary key, holding
     * {@code rows} written directly (rows that exist before CDC is enabled have no change rows, as on SQL Server).
     */
    public void createTable(String table, boolean primaryKey, Object[]... rows) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE dbo." + table + " (" + COLUMNS + (primaryKey ? ", PRIMARY KEY (id))" : ")"));
        }
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
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE cdc.[dbo_" + table + "_CT] ([__$start_lsn] BINARY(10) NOT NULL, "
                + "[__$seqval] BINARY(10) NOT NULL, [__$operation] INT NOT NULL, [__$update_mask] VARBINARY(128), "
                + COLUMNS + ", [__$command_id] INT NOT NULL)");
            st.execute("INSERT INTO cdc.change_tables VALUES ('dbo_" + table + "', X'"
                + H2CdcFixture.hex(H2CdcFixture.lsn(lsnCounter + 1)) + "')");
        }
        enabled.add(table);
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
            if (!enabled.contains(table)) {
                return; // no capture instance: SQL Server records nothing
            }
            try (PreparedStatement ct = connection.prepareStatement("INSERT INTO cdc.[dbo_" + table + "_CT] "
                + "([__$start_lsn], [__$seqval], [__$operation], [__$update_mask], id, label, amount, [__$command_id])"
                + " VALUES (?, ?, ?, X'07', ?, ?, ?, ?)")) {
                ct.setBytes(1, lsn);
                ct.setBytes(2, seqval);
                ct.setInt(3, op);
                for (int i = 0; i < 3; i++) {
                    ct.setObject(4 + i, row[i]);
                }
                ct.setInt(7, command);
                ct.executeUpdate();
            }
        }

        private void apply(String table, int op, Object[] row) throws SQLException {
            if (op == 1) {
                try (PreparedStatement d = connection.prepareStatement("DELETE FROM dbo." + table + " WHERE id = ?")) {
                    d.setObject(1, row[0]);
                    d.executeUpdate();
                }
                return;
            }
            try (PreparedStatement m = connection.prepareStatement("MERGE INTO dbo." + table + " KEY (id) VALUES "
                + "(?, ?, ?)")) {
                for (int i = 0; i < 3; i++) {
                    m.setObject(1 + i, row[i]);
                }
                m.executeUpdate();
            }
        }
    }
}
