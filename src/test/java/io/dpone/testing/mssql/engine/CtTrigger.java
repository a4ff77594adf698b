package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.h2.api.Trigger;

/**
 * Logs each row change of a tracked table to its Change Tracking log: insert I, delete D, update U, a primary-key
 * update D of the old key and I of the new one. The version is the session's marker until {@link Capture#commit}.
 */
public final class CtTrigger implements Trigger {
    private String schema;
    private String table;
    private long loadedAt = -1;
    private int[] key;
    private String insert;
    private String log;

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String tableName, boolean before,
                     int type) {
        this.schema = schemaName;
        this.table = tableName;
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        load(conn);
        Capture.Pending p = Capture.of(conn);
        if (oldRow == null) {
            write(conn, p, "I", newRow);
        } else if (newRow == null) {
            write(conn, p, "D", oldRow);
        } else if (sameKey(oldRow, newRow)) {
            write(conn, p, "U", newRow);
        } else {
            write(conn, p, "D", oldRow);
            write(conn, p, "I", newRow);
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

    private void write(Connection conn, Capture.Pending p, String op, Object[] row) throws SQLException {
        Long version = null;
        if (p != null) {
            p.ctLogs.add(log);
        } else {
            // a write through H2 directly: versioned at once (no commit hook)
            version = Capture.next(conn, "ct_version_seq");
            try (PreparedStatement st = conn.prepareStatement("INSERT INTO sys.dm_tran_commit_table (commit_ts, "
                + "commit_time) VALUES (?, CURRENT_TIMESTAMP)")) {
                st.setLong(1, version);
                st.executeUpdate();
            }
        }
        try (PreparedStatement st = conn.prepareStatement(insert)) {
            st.setObject(1, version);
            st.setObject(2, p != null ? p.marker : null);
            st.setString(3, op);
            for (int i = 0; i < key.length; i++) {
                st.setObject(4 + i, row[key[i]]);
            }
            st.executeUpdate();
        }
    }

    private synchronized void load(Connection conn) throws SQLException {
        long version = TwinCatalog.VERSION.get();
        if (version == loadedAt) {
            return;
        }
        List<String> columns = Metadata.columnNames(conn, schema, table);
        List<String> keyNames = new ArrayList<>(Metadata.primaryKey(conn, schema, table).keySet());
        int[] positions = new int[keyNames.size()];
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(log = ChangeTracking.logTable(
            new Names.Table(schema, table)).h2()).append(" (version, marker, op");
        for (int i = 0; i < keyNames.size(); i++) {
            positions[i] = columns.indexOf(keyNames.get(i).toLowerCase(Locale.ROOT));
            sql.append(", ").append(Names.quote(keyNames.get(i)));
        }
        insert = sql.append(") VALUES (?, ?, ?").append(", ?".repeat(keyNames.size())).append(")").toString();
        key = positions;
        loadedAt = version;
    }
}
