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
 *   <li>{@code cdc.change_tables(capture_instance, start_lsn)} and {@code cdc.lsn_time_mapping(start_lsn)}, the
 *       system tables the real functions read;</li>
 *   <li>{@code sys.fn_cdc_get_min_lsn(capture_instance)} (0x00..00 for an unknown instance, as SQL Server) and
 *       {@code sys.fn_cdc_get_max_lsn()} as {@code CREATE ALIAS} functions over those tables.</li>
 * </ul>
 * A {@link Txn} writes what the capture job writes for one committed transaction: every change row at the same
 * {@code __$start_lsn}, with increasing {@code __$command_id} and the given (or increasing) {@code __$seqval}; an
 * update is a before image (3) and an after image (4) with the same seqval; a primary-key update is a delete (1)
 * and an insert (2). It also applies the change to {@code dbo.orders}.
 */
public final class H2CdcFixture implements AutoCloseable {
    public static final String CAPTURE_INSTANCE = "dbo_orders";
    static final String COLUMNS = "order_id INT NOT NULL, status NVARCHAR(40), amount DECIMAL(18,2), note NVARCHAR(MAX), "
        + "updated_at DATETIME2(7)";

    public final String url;
    public final Connection connection;
    private long lsnCounter = 0x100;
    private long seqCounter = 0x10;

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
            st.execute("CREATE TABLE cdc.change_tables (capture_instance NVARCHAR(128), start_lsn BINARY(10))");
            st.execute("CREATE TABLE cdc.lsn_time_mapping (start_lsn BINARY(10), tran_end_time TIMESTAMP)");
            // the same sys.fn_cdc_* functions over the same cdc tables as the demo's CDC emulation
            String fns = io.dpone.demo.DemoCdcFunctions.class.getName();
            st.execute("CREATE ALIAS sys.fn_cdc_map_lsn_to_time FOR \"" + fns + ".mapLsnToTime\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_max_lsn FOR \"" + fns + ".maxLsn\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_min_lsn FOR \"" + fns + ".minLsn\"");
            st.execute("INSERT INTO cdc.change_tables VALUES ('" + CAPTURE_INSTANCE + "', X'" + hex(lsn(lsnCounter))
                + "')");
        }
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
        try (PreparedStatement del = connection.prepareStatement(
            "DELETE FROM cdc.[dbo_orders_CT] WHERE [__$start_lsn] < ?");
             PreparedStatement upd = connection.prepareStatement("UPDATE cdc.change_tables SET start_lsn = ?")) {
            del.setBytes(1, keepFrom);
            del.executeUpdate();
            upd.setBytes(1, keepFrom);
            upd.executeUpdate();
        }
    }

    /** Disables CDC on the table (the capture instance disappears). */
    public void disable() throws SQLException {
        connection.createStatement().execute("DELETE FROM cdc.change_tables");
    }

    @Override
    public void close() throws SQLException {
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
            try (PreparedStatement ct = connection.prepareStatement("INSERT INTO cdc.[dbo_orders_CT] ([__$start_lsn], "
                + "[__$seqval], [__$operation], [__$update_mask], order_id, status, amount, note, updated_at, "
                + "[__$command_id]) VALUES (?, ?, ?, X'1F', ?, ?, ?, ?, ?, ?)")) {
                int command = 0;
                for (int i = 0; i < changes.size(); i++) {
                    Object[] c = changes.get(i);
                    byte[] seqval = new Lsn(BigInteger.valueOf(seqvals != null ? seqvals[i] : ++seqCounter)).bytes();
                    command++;
                    int op = (int) c[0];
                    if (op == 3) {
                        add(ct, lsn, seqval, 3, (Object[]) c[1], command);
                        add(ct, lsn, seqval, 4, (Object[]) c[2], command);
                    } else {
                        add(ct, lsn, seqval, op, (Object[]) c[1], command);
                    }
                    apply(op, op == 3 ? (Object[]) c[2] : (Object[]) c[1]);
                }
                ct.executeBatch();
            }
            try (PreparedStatement m = connection.prepareStatement("INSERT INTO cdc.lsn_time_mapping VALUES (?, ?)")) {
                m.setBytes(1, lsn);
                m.setTimestamp(2, new java.sql.Timestamp(System.currentTimeMillis()));
                m.executeUpdate();
            }
            return lsn;
        }

        private void add(PreparedStatement ct, byte[] lsn, byte[] seqval, int op, Object[] row, int command)
            throws SQLException {
            ct.setBytes(1, lsn);
            ct.setBytes(2, seqval);
            ct.setInt(3, op);
            for (int i = 0; i < 5; i++) {
                ct.setObject(4 + i, row[i]);
            }
            ct.setInt(9, command);
            ct.addBatch();
        }

        private void apply(int op, Object[] row) throws SQLException {
            if (op == 1) {
                try (PreparedStatement d = connection.prepareStatement("DELETE FROM dbo.orders WHERE order_id = ?")) {
                    d.setObject(1, row[0]);
                    d.executeUpdate();
                }
                return;
            }
            try (PreparedStatement m = connection.prepareStatement("MERGE INTO dbo.orders KEY (order_id) VALUES "
                + "(?, ?, ?, ?, ?)")) {
                for (int i = 0; i < 5; i++) {
                    m.setObject(1 + i, row[i]);
                }
                m.executeUpdate();
            }
        }
    }
}
