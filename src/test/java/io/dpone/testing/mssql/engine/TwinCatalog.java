package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The declared SQL Server type of every column the twin created, kept in the database itself
 * ({@code twin_catalog.columns}) so a restarted twin describes results exactly as before.
 */
final class TwinCatalog {
    /** Bumped by every DDL: sessions cache the catalogue per version. */
    static final AtomicLong VERSION = new AtomicLong();

    /**
     * A declared column.
     *
     * @param userType the alias type it was declared with ({@code Name} for {@code dbo.Name}), null for a system type
     * @param computed the expression of a computed column as declared, null for a stored one
     * @param sparse   declared {@code SPARSE}
     */
    record Column(String name, int ordinal, SqlType type, boolean identity, String userType, String computed,
                  boolean sparse) {
        Column(String name, int ordinal, SqlType type, boolean identity) {
            this(name, ordinal, type, identity, null, null, false);
        }
    }

    /** An alias type ({@code CREATE TYPE s.n FROM base [NOT] NULL}). */
    record Alias(String schema, String name, SqlType base, boolean notNull) {
    }

    private TwinCatalog() {
    }

    /** The text a declared type is stored as: its declaration and, for character types, the collation. */
    static String text(SqlType t) {
        return t.declaration() + (t.collation() != null ? " COLLATE " + t.collation() : "");
    }

    static void record(Connection c, Names.Table t, List<Column> columns) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("MERGE INTO twin_catalog.columns (table_schema, table_name, "
            + "column_name, ordinal, declared, is_identity, user_type, computed, is_sparse) KEY (table_schema, "
            + "table_name, column_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Column col : columns) {
                st.setString(1, t.schema().toLowerCase(Locale.ROOT));
                st.setString(2, t.name().toLowerCase(Locale.ROOT));
                st.setString(3, col.name());
                st.setInt(4, col.ordinal());
                st.setString(5, text(col.type()));
                st.setBoolean(6, col.identity());
                st.setString(7, col.userType());
                st.setString(8, col.computed());
                st.setBoolean(9, col.sparse());
                st.addBatch();
            }
            st.executeBatch();
        }
        VERSION.incrementAndGet();
    }

    static void drop(Connection c, Names.Table t, String column) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("DELETE FROM twin_catalog.columns WHERE table_schema = ? AND "
            + "table_name = ?" + (column == null ? "" : " AND UPPER(column_name) = UPPER(?)"))) {
            st.setString(1, t.schema().toLowerCase(Locale.ROOT));
            st.setString(2, t.name().toLowerCase(Locale.ROOT));
            if (column != null) {
                st.setString(3, column);
            }
            st.executeUpdate();
        }
        VERSION.incrementAndGet();
    }

    /** The declared columns of a table by lower-case name, in ordinal order; empty for a table the twin did not create. */
    static Map<String, Column> columns(Connection c, String schema, String table) throws SQLException {
        Map<String, Column> out = new LinkedHashMap<>();
        try (PreparedStatement st = c.prepareStatement("SELECT column_name, ordinal, declared, is_identity, user_type, "
            + "computed, is_sparse FROM twin_catalog.columns WHERE table_schema = ? AND table_name = ? ORDER BY ordinal")) {
            st.setString(1, schema.toLowerCase(Locale.ROOT));
            st.setString(2, table.toLowerCase(Locale.ROOT));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1).toLowerCase(Locale.ROOT), new Column(rs.getString(1), rs.getInt(2),
                        SqlType.parse(rs.getString(3)), rs.getBoolean(4), rs.getString(5), rs.getString(6),
                        rs.getBoolean(7)));
                }
            }
        }
        return out;
    }

    /** {@code CREATE TYPE}: error 219 when the name is taken. */
    static void createAlias(Connection c, Alias a) throws SQLException, SqlServerError {
        if (alias(c, a.schema() + "." + a.name()) != null) {
            throw new SqlServerError(219, 1, 16, "The type '" + a.schema() + "." + a.name() + "' already exists, or "
                + "you do not have permission to create it.");
        }
        try (PreparedStatement st = c.prepareStatement("INSERT INTO twin_catalog.types (type_schema, type_name, base, "
            + "not_null) VALUES (?, ?, ?, ?)")) {
            st.setString(1, a.schema());
            st.setString(2, a.name());
            st.setString(3, text(a.base()));
            st.setBoolean(4, a.notNull());
            st.executeUpdate();
        }
        VERSION.incrementAndGet();
    }

    /** The alias type a declared type names ({@code Name}, {@code dbo.Name}, {@code [dbo].[Name]}), or null. */
    static Alias alias(Connection c, String declared) throws SQLException {
        List<String> parts = Names.parts(declared);
        String schema = parts.size() >= 2 ? parts.get(parts.size() - 2) : "dbo";
        try (PreparedStatement st = c.prepareStatement("SELECT type_schema, type_name, base, not_null FROM "
            + "twin_catalog.types WHERE UPPER(type_schema) = UPPER(?) AND UPPER(type_name) = UPPER(?)")) {
            st.setString(1, schema);
            st.setString(2, parts.get(parts.size() - 1));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? new Alias(rs.getString(1), rs.getString(2), SqlType.parse(rs.getString(3)),
                    rs.getBoolean(4)) : null;
            }
        }
    }

    static int nextOrdinal(Connection c, Names.Table t) throws SQLException {
        return columns(c, t.schema(), t.name()).values().stream().mapToInt(Column::ordinal).max().orElse(0) + 1;
    }
}
