package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.h2.api.Trigger;

/**
 * What SQL Server's capture job writes for each row change of a captured table, for every capture instance of it:
 * insert 2, delete 1, update a before image 3 and an after image 4 (same seqval and command id), a primary-key
 * update a delete of the old key and an insert of the new one. Each change gets the next {@code __$seqval} (from
 * the LSN sequence: it precedes the commit LSN, as a log record does) and the transaction's next
 * {@code __$command_id}; {@code __$start_lsn} is the session's marker until {@link Capture#commit}.
 */
public final class CdcTrigger implements Trigger {
    private String schema;
    private String table;
    private long loadedAt = -1;
    private List<Instance> instances = List.of();
    private int[] key = new int[0];

    /** @param computed per captured column: a computed column, captured as NULL and never marked changed */
    /** @param companions source row positions of the captured sql_variant columns' base types (after the rest) */
    private record Instance(String changeTable, String insert, int[] positions, boolean[] computed, int[] companions) {
    }

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
                     int type) {
        this.schema = schemaName;
        this.table = tableName;
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        load(conn);
        if (instances.isEmpty()) {
            return;
        }
        Capture.Pending p = Capture.of(conn);
        byte[] lsn = p != null ? p.markerLsn() : Capture.lsn(Capture.next(conn, "lsn_seq"));
        for (Instance i : instances) {
            if (oldRow == null) {
                write(conn, p, i, lsn, List.of(new Object[][] {{2, newRow}}), null);
            } else if (newRow == null) {
                write(conn, p, i, lsn, List.of(new Object[][] {{1, oldRow}}), null);
            } else if (!sameKey(oldRow, newRow)) {
                write(conn, p, i, lsn, List.of(new Object[][] {{1, oldRow}}), null);
                write(conn, p, i, lsn, List.of(new Object[][] {{2, newRow}}), null);
            } else {
                write(conn, p, i, lsn, List.of(new Object[] {3, oldRow}, new Object[] {4, newRow}),
                    changedMask(i, oldRow, newRow));
            }
        }
        if (p == null) {
            try (PreparedStatement st = conn.prepareStatement("INSERT INTO cdc.lsn_time_mapping (start_lsn, "
                + "tran_begin_time, tran_end_time) VALUES (?, ?, ?)")) {
                Timestamp now = new Timestamp(System.currentTimeMillis());
                st.setBytes(1, lsn);
                st.setTimestamp(2, now);
                st.setTimestamp(3, now);
                st.executeUpdate();
            }
        }
    }

    private boolean sameKey(Object[] a, Object[] b) {
        for (int k : key) {
            if (!Objects.deepEquals(a[k], b[k])) {
                return false;
            }
        }
        return true;
    }

    private void write(Connection conn, Capture.Pending p, Instance i, byte[] lsn, List<Object[]> images, byte[] mask)
        throws SQLException {
        byte[] seqval = Capture.lsn(Capture.next(conn, "lsn_seq"));
        int command = p != null ? ++p.commandId : 1;
        if (p != null) {
            p.cdcTables.add(i.changeTable);
        }
        try (PreparedStatement st = conn.prepareStatement(i.insert)) {
            for (Object[] image : images) {
                Object[] row = (Object[]) image[1];
                st.setBytes(1, lsn);
                st.setBytes(2, seqval);
                st.setInt(3, (int) image[0]);
                st.setBytes(4, mask != null ? mask : allColumns(i.positions.length));
                for (int c = 0; c < i.positions.length; c++) {
                    st.setObject(5 + c, i.computed[c] ? null : row[i.positions[c]]);
                }
                st.setInt(5 + i.positions.length, command);
                for (int k = 0; k < i.companions.length; k++) {
                    st.setObject(6 + i.positions.length + k, row[i.companions[k]]);
                }
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    /** {@code __$update_mask}: bit n-1 for captured column n, counted from the last byte (SQL Server's order). */
    private static byte[] mask(int columns, boolean[] set) {
        byte[] m = new byte[Math.max(1, (columns + 7) / 8)];
        for (int c = 0; c < columns; c++) {
            if (set[c]) {
                m[m.length - 1 - c / 8] |= (byte) (1 << (c % 8));
            }
        }
        return m;
    }

    private static byte[] allColumns(int columns) {
        boolean[] all = new boolean[columns];
        java.util.Arrays.fill(all, true);
        return mask(columns, all);
    }

    private static byte[] changedMask(Instance i, Object[] before, Object[] after) {
        boolean[] changed = new boolean[i.positions.length];
        for (int c = 0; c < changed.length; c++) {
            changed[c] = !i.computed[c] && !Objects.deepEquals(before[i.positions[c]], after[i.positions[c]]);
        }
        return mask(changed.length, changed);
    }

    /** The capture instances of the table and where their columns sit in a row; reloaded after any DDL. */
    private synchronized void load(Connection conn) throws SQLException {
        long version = TwinCatalog.VERSION.get();
        if (version == loadedAt) {
            return;
        }
        List<String> columns = Metadata.columnNames(conn, schema, table);
        key = Metadata.primaryKey(conn, schema, table).keySet().stream()
            .mapToInt(k -> columns.indexOf(k.toLowerCase(java.util.Locale.ROOT))).toArray();
        List<Instance> found = new ArrayList<>();
        try (PreparedStatement st = conn.prepareStatement("SELECT i.capture_instance, c.column_name, c.is_computed FROM "
            + "twin_catalog.cdc_instances i JOIN cdc.captured_columns c ON c.object_id = twin_object_id('cdc', "
            + "i.capture_instance || '_CT') WHERE i.source_schema = ? AND i.source_table = ? "
            + "ORDER BY i.capture_instance, c.column_ordinal")) {
            st.setString(1, schema);
            st.setString(2, table);
            String ci = null;
            List<String> names = new ArrayList<>();
            List<Boolean> computed = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (true) {
                    boolean more = rs.next();
                    if (ci != null && (!more || !ci.equals(rs.getString(1)))) {
                        found.add(instance(ci, names, columns, computed));
                        names = new ArrayList<>();
                        computed = new ArrayList<>();
                    }
                    if (!more) {
                        break;
                    }
                    ci = rs.getString(1);
                    names.add(rs.getString(2));
                    computed.add(rs.getBoolean(3));
                }
            }
        }
        instances = found;
        loadedAt = version;
    }

    private static Instance instance(String ci, List<String> names, List<String> columns, List<Boolean> computed) {
        String changeTable = new Names.Table("cdc", ci + "_CT").h2();
        StringBuilder sql = new StringBuilder("INSERT INTO " + changeTable + " (\"__$start_lsn\", \"__$seqval\", "
            + "\"__$operation\", \"__$update_mask\"");
        int[] positions = new int[names.size()];
        for (int c = 0; c < names.size(); c++) {
            sql.append(", ").append(Names.quote(names.get(c)));
            positions[c] = columns.indexOf(names.get(c).toLowerCase(java.util.Locale.ROOT));
        }
        sql.append(", \"__$command_id\"");
        List<Integer> companions = new ArrayList<>();
        for (String name : names) {
            String companion = TableDdl.variantTypeColumn(name);
            int at = columns.indexOf(companion.toLowerCase(java.util.Locale.ROOT));
            if (at >= 0) {
                sql.append(", ").append(Names.quote(companion));
                companions.add(at);
            }
        }
        sql.append(") VALUES (?, ?, ?, ?").append(", ?".repeat(names.size())).append(", ?")
            .append(", ?".repeat(companions.size())).append(')');
        boolean[] isComputed = new boolean[computed.size()];
        for (int c = 0; c < isComputed.length; c++) {
            isComputed[c] = computed.get(c);
        }
        return new Instance(changeTable, sql.toString(), positions, isComputed,
            companions.stream().mapToInt(Integer::intValue).toArray());
    }
}
