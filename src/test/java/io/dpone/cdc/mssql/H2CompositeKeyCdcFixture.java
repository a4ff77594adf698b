package io.dpone.cdc.mssql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * SQL Server CDC emulated in H2 ({@code MODE=MSSQLServer}), as {@link H2CdcFixture} does it, for a table with a
 * <b>composite</b> primary key: {@code dbo.shipments}, captured by the default instance {@code dbo_shipments}.
 *
 * <p>The key is {@code (region NVARCHAR(8), order_id INT, ship_date DATE, lot UNIQUEIDENTIFIER)}: a string, an
 * integer, a date and a GUID, declared in another order than the table's columns ({@code order_id} comes first in
 * the table), so nothing can pass by assuming key order = column order or a single key column. Rows are
 * {@code {order_id, region, ship_date, lot, status, amount, note}} (the table's column order).
 *
 * <p>The change table {@code cdc.[dbo_shipments_CT]}, {@code cdc.change_tables}, {@code cdc.lsn_time_mapping} and
 * the {@code sys.fn_cdc_*} functions are laid out as in {@link H2CdcFixture}. A {@link Txn} writes what the capture
 * job writes for one committed transaction (every change row at one {@code __$start_lsn}, increasing
 * {@code __$command_id} and {@code __$seqval}; an update as before (3) and after (4) images; an update of any key
 * component as a delete (1) of the old key and an insert (2) of the new one) and applies it to the table.
 */
public final class H2CompositeKeyCdcFixture implements AutoCloseable {
    public static final String SCHEMA = "dbo";
    public static final String TABLE = "shipments";
    public static final String CAPTURE_INSTANCE = "dbo_shipments";
    /** The primary key, in its declared order: the stream's unique keys. */
    public static final List<String> KEY = List.of("region", "order_id", "ship_date", "lot");
    /** The table's columns, in table order. */
    public static final List<String> COLUMN_NAMES = List.of("order_id", "region", "ship_date", "lot", "status",
        "amount", "note");
    /** Where each {@link #KEY} column sits in a row. */
    static final int[] KEY_INDEX = {1, 0, 2, 3};
    static final String COLUMNS = "order_id INT NOT NULL, region NVARCHAR(8) NOT NULL, ship_date DATE NOT NULL, "
        + "lot UNIQUEIDENTIFIER NOT NULL, status NVARCHAR(40), amount DECIMAL(18,2), note NVARCHAR(MAX)";

    public final String url;
    public final Connection connection;
    private long lsnCounter = 0x100;
    private long seqCounter = 0x10;

    public H2CompositeKeyCdcFixture(String url) throws SQLException {
        this.url = url;
        this.connection = DriverManager.getConnection(url, "sa", "");
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE SCHEMA IF NOT EXISTS cdc");
            st.execute("CREATE SCHEMA IF NOT EXISTS sys");
            st.execute("CREATE TABLE dbo.shipments (" + COLUMNS + ", PRIMARY KEY (" + String.join(", ", KEY) + "))");
            st.execute("CREATE TABLE cdc.[dbo_shipments_CT] ([__$start_lsn] BINARY(10) NOT NULL, "
                + "[__$seqval] BINARY(10) NOT NULL, [__$operation] INT NOT NULL, [__$update_mask] VARBINARY(128), "
                + COLUMNS.replace(" NOT NULL", "") + ", [__$command_id] INT NOT NULL)");
            st.execute("CREATE INDEX dbo_shipments_CT_clustered ON cdc.[dbo_shipments_CT] ([__$start_lsn], "
                + "[__$command_id], [__$seqval], [__$operation])");
            st.execute("CREATE TABLE cdc.change_tables (capture_instance NVARCHAR(128), start_lsn BINARY(10))");
            st.execute("CREATE TABLE cdc.lsn_time_mapping (start_lsn BINARY(10), tran_end_time TIMESTAMP)");
            String fns = io.dpone.demo.DemoCdcFunctions.class.getName();
            st.execute("CREATE ALIAS sys.fn_cdc_map_lsn_to_time FOR \"" + fns + ".mapLsnToTime\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_max_lsn FOR \"" + fns + ".maxLsn\"");
            st.execute("CREATE ALIAS sys.fn_cdc_get_min_lsn FOR \"" + fns + ".minLsn\"");
            io.dpone.demo.DemoPermissions.install(st);
            st.execute("INSERT INTO cdc.change_tables VALUES ('" + CAPTURE_INSTANCE + "', X'"
                + H2CdcFixture.hex(H2CdcFixture.lsn(lsnCounter)) + "')");
        }
    }

    /** A row of dbo.shipments, in table order. */
    public static Object[] row(String region, int orderId, String shipDate, UUID lot, String status, String amount,
                               String note) {
        return new Object[] {orderId, region, LocalDate.parse(shipDate), lot, status,
            amount == null ? null : new BigDecimal(amount), note};
    }

    /** The composite key of {@code row}, in {@link #KEY} order. */
    public static List<Object> key(Object[] row) {
        return Arrays.stream(KEY_INDEX).mapToObj(i -> row[i]).toList();
    }

    public Txn txn() {
        return new Txn();
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    /** One source transaction; {@link #commit()} writes its change rows at one new LSN. */
    public final class Txn {
        private final List<Object[]> changes = new ArrayList<>(); // {operation, row[, after]}

        public Txn insert(Object[] row) {
            changes.add(new Object[] {2, row});
            return this;
        }

        public Txn delete(Object[] row) {
            changes.add(new Object[] {1, row});
            return this;
        }

        /** An in-place update (the key unchanged): before image (3) and after image (4) share command id and seqval. */
        public Txn update(Object[] before, Object[] after) {
            if (!key(before).equals(key(after))) {
                throw new IllegalArgumentException("an in-place update keeps the key; use updateKey");
            }
            changes.add(new Object[] {3, before, after});
            return this;
        }

        /** An update of one or more key components: SQL Server logs a delete of the old key and an insert of the new. */
        public Txn updateKey(Object[] before, Object[] after) {
            return delete(before).insert(after);
        }

        /** Writes the change rows (and applies them to dbo.shipments); returns the transaction's LSN. */
        public byte[] commit() throws SQLException {
            byte[] lsn = H2CdcFixture.lsn(++lsnCounter);
            try (PreparedStatement ct = connection.prepareStatement("INSERT INTO cdc.[dbo_shipments_CT] "
                + "([__$start_lsn], [__$seqval], [__$operation], [__$update_mask], " + String.join(", ", COLUMN_NAMES)
                + ", [__$command_id]) VALUES (?, ?, ?, X'7F', ?, ?, ?, ?, ?, ?, ?, ?)")) {
                int command = 0;
                for (Object[] c : changes) {
                    byte[] seqval = new Lsn(BigInteger.valueOf(++seqCounter)).bytes();
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
            for (int i = 0; i < COLUMN_NAMES.size(); i++) {
                ct.setObject(4 + i, row[i]);
            }
            ct.setInt(4 + COLUMN_NAMES.size(), command);
            ct.addBatch();
        }

        private void apply(int op, Object[] row) throws SQLException {
            if (op == 1) {
                try (PreparedStatement d = connection.prepareStatement("DELETE FROM dbo.shipments WHERE "
                    + String.join(" = ? AND ", KEY) + " = ?")) {
                    for (int i = 0; i < KEY_INDEX.length; i++) {
                        d.setObject(1 + i, row[KEY_INDEX[i]]);
                    }
                    if (d.executeUpdate() != 1) {
                        throw new IllegalStateException("the deleted key is not in dbo.shipments");
                    }
                }
                return;
            }
            try (PreparedStatement m = connection.prepareStatement("MERGE INTO dbo.shipments KEY ("
                + String.join(", ", KEY) + ") VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < COLUMN_NAMES.size(); i++) {
                    m.setObject(1 + i, row[i]);
                }
                m.executeUpdate();
            }
        }
    }
}
