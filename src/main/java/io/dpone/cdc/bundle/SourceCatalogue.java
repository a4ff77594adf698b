package io.dpone.cdc.bundle;

import io.dpone.source.ColumnReads;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The source catalogue reads of the bundle's checks: JDBC metadata and one-cell catalogue queries. */
final class SourceCatalogue {
    private SourceCatalogue() {
    }

    /** One column as JDBC metadata describes it. */
    record Meta(String name, int jdbcType, String typeName, int size, int scale, boolean nullable) {
        ColumnReads.Described described() {
            return new ColumnReads.Described(name, jdbcType, typeName, size, scale, nullable, false);
        }

        Map<String, Object> fact() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("type", typeName == null ? "" : typeName.toLowerCase(Locale.ROOT));
            m.put("jdbc_type", jdbcType);
            m.put("size", size);
            m.put("scale", scale);
            m.put("nullable", nullable);
            return m;
        }
    }

    /** The columns of {@code schema.table} in table order, CDC metadata columns ({@code __$...}) left out. */
    static List<Meta> columns(DatabaseMetaData md, String schema, String table) throws SQLException {
        List<Meta> out = new ArrayList<>();
        io.dpone.cdc.mssql.PayloadColumns.eachColumn(md, schema, table, rs -> out.add(new Meta(
            rs.getString("COLUMN_NAME"), rs.getInt("DATA_TYPE"), rs.getString("TYPE_NAME"), rs.getInt("COLUMN_SIZE"),
            rs.getInt("DECIMAL_DIGITS"), rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls)));
        return out;
    }

    /** The unique indexes of the table: name to columns in key order (indexes with a filter are not told apart). */
    static Map<String, List<String>> uniqueIndexes(DatabaseMetaData md, String schema, String table)
        throws SQLException {
        Map<String, TreeMap<Integer, String>> out = new TreeMap<>();
        try (ResultSet rs = md.getIndexInfo(null, schema, table, true, false)) {
            while (rs.next()) {
                String index = rs.getString("INDEX_NAME");
                String column = rs.getString("COLUMN_NAME");
                if (index == null || column == null || rs.getBoolean("NON_UNIQUE")
                    || !table.equalsIgnoreCase(rs.getString("TABLE_NAME"))) {
                    continue;
                }
                out.computeIfAbsent(index, k -> new TreeMap<>()).put((int) rs.getShort("ORDINAL_POSITION"), column);
            }
        }
        Map<String, List<String>> lists = new TreeMap<>();
        out.forEach((k, v) -> lists.put(k, new ArrayList<>(v.values())));
        return lists;
    }

    /** The value of a one-cell query, null when it is NULL, there is no row, or the query failed. */
    static Long scalar(Connection c, String sql, String... parameters) {
        try {
            return number(c, sql, parameters);
        } catch (SQLException e) {
            return null;
        }
    }

    /** The value of a one-cell numeric query, null when it is NULL or there is no row; a failure is thrown. */
    static Long number(Connection c, String sql, String... parameters) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                st.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long v = rs.getLong(1);
                return rs.wasNull() ? null : v;
            }
        }
    }

    /** The first cell of a query's first row as text, null for no row or NULL; a failure is thrown. */
    static String text(Connection c, String sql, String... parameters) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                st.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    static Set<String> lower(List<String> names) {
        Set<String> out = new LinkedHashSet<>();
        names.forEach(n -> out.add(n.toLowerCase(Locale.ROOT)));
        return out;
    }
}
