package io.dpone.source;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one read of a table's primary key from JDBC metadata, for the full-refresh reader, the CDC readers, the
 * choice of tables by pattern and the promotion bundle alike.
 */
public final class PrimaryKeys {
    private PrimaryKeys() {
    }

    /**
     * The primary-key columns of {@code schema.table} in key order ({@code KEY_SEQ}), empty for a table without one.
     * Rows the driver returns for another table or schema are skipped (a null {@code schema} matches any).
     */
    public static List<String> of(DatabaseMetaData md, String schema, String table) throws SQLException {
        Map<Integer, String> keys = new TreeMap<>();
        try (ResultSet rs = md.getPrimaryKeys(null, schema, table)) {
            while (rs.next()) {
                if (table.equalsIgnoreCase(rs.getString("TABLE_NAME"))
                    && (schema == null || schema.equalsIgnoreCase(rs.getString("TABLE_SCHEM")))) {
                    keys.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                }
            }
        }
        return new ArrayList<>(keys.values());
    }
}
