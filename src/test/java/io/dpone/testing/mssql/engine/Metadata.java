package io.dpone.testing.mssql.engine;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The catalogue procedures mssql-jdbc's {@code DatabaseMetaData} runs: {@code getColumns} (the
 * {@code DECLARE @mssqljdbc_temp_sp_columns_result ... EXEC sp_columns_100 ?,?,?,?,?,?; SELECT ...} text, answered
 * with exactly that outer SELECT's columns and types) and {@code getPrimaryKeys} ({@code sp_pkeys}).
 */
final class Metadata {
    private static final SqlType SYSNAME = SqlType.parse("sysname");
    private static final SqlType INT = SqlType.of(SqlType.Kind.INT);
    private static final SqlType SMALLINT = SqlType.of(SqlType.Kind.SMALLINT);
    /** {@code CAST(x AS VARCHAR)} without a length is varchar(30) in T-SQL. */
    private static final SqlType VARCHAR30 = SqlType.parse("varchar(30)");
    private static final List<ResultColumn> COLUMNS = List.of(
        col("TABLE_CAT", SYSNAME), col("TABLE_SCHEM", SYSNAME), col("TABLE_NAME", SYSNAME), col("COLUMN_NAME", SYSNAME),
        col("DATA_TYPE", INT), col("TYPE_NAME", SYSNAME), col("COLUMN_SIZE", INT), col("BUFFER_LENGTH", INT),
        col("DECIMAL_DIGITS", INT), col("NUM_PREC_RADIX", INT), col("NULLABLE", INT), col("REMARKS", VARCHAR30),
        col("COLUMN_DEF", SqlType.parse("nvarchar(4000)")), col("SQL_DATA_TYPE", INT), col("SQL_DATETIME_SUB", INT),
        col("CHAR_OCTET_LENGTH", INT), col("ORDINAL_POSITION", INT), col("IS_NULLABLE", SqlType.parse("varchar(254)")),
        col("SCOPE_CATALOG", VARCHAR30), col("SCOPE_SCHEMA", VARCHAR30), col("SCOPE_TABLE", VARCHAR30),
        col("SOURCE_DATA_TYPE", SMALLINT), col("IS_AUTOINCREMENT", SqlType.parse("varchar(3)")),
        col("IS_GENERATEDCOLUMN", SqlType.parse("varchar(3)")), col("SS_IS_SPARSE", SMALLINT),
        col("SS_IS_COLUMN_SET", SMALLINT), col("SS_UDT_CATALOG_NAME", SqlType.parse("nvarchar(128)")),
        col("SS_UDT_SCHEMA_NAME", SqlType.parse("nvarchar(128)")),
        col("SS_UDT_ASSEMBLY_TYPE_NAME", SqlType.parse("nvarchar(max)")),
        col("SS_XML_SCHEMACOLLECTION_CATALOG_NAME", SqlType.parse("nvarchar(128)")),
        col("SS_XML_SCHEMACOLLECTION_SCHEMA_NAME", SqlType.parse("nvarchar(128)")),
        col("SS_XML_SCHEMACOLLECTION_NAME", SqlType.parse("nvarchar(128)")));
    private static final List<ResultColumn> PKEYS = List.of(col("TABLE_QUALIFIER", SYSNAME),
        col("TABLE_OWNER", SYSNAME), new ResultColumn("TABLE_NAME", SYSNAME, false),
        new ResultColumn("COLUMN_NAME", SYSNAME, false), col("KEY_SEQ", SMALLINT), col("PK_NAME", SYSNAME));

    private Metadata() {
    }

    private static ResultColumn col(String name, SqlType type) {
        return new ResultColumn(name, type, true);
    }

    /** getColumns: parameters {@code @P0..@P5} = table, schema, catalog, column patterns, 2, 3. */
    static void columns(EngineSession s, Map<String, Object> values, Results out)
        throws SQLException, IOException, SqlServerError {
        Pattern table = like((String) values.get("p0"));
        Pattern schema = like((String) values.get("p1"));
        String catalog = (String) values.get("p2");
        Pattern column = like((String) values.get("p3"));
        if (catalog != null && !catalog.equalsIgnoreCase(s.database())) {
            throw new SqlServerError(15250, 1, 16, "The database name component of the object qualifier must be the "
                + "name of the current database.");
        }
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement st = s.h2.prepareStatement("SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME, "
            + "c.ORDINAL_POSITION, c.IS_NULLABLE, c.COLUMN_DEFAULT, c.IS_IDENTITY FROM INFORMATION_SCHEMA.COLUMNS c "
            + "WHERE c.TABLE_SCHEMA NOT IN ('INFORMATION_SCHEMA', 'twin_catalog', 'sys') "
            + "ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME, c.ORDINAL_POSITION"); ResultSet rs = st.executeQuery()) {
            String loaded = null;
            Map<String, TwinCatalog.Column> types = Map.of();
            while (rs.next()) {
                String sch = rs.getString(1);
                String tab = rs.getString(2);
                String name = rs.getString(3);
                if (!schema.matcher(sch).matches() || !table.matcher(tab).matches()
                    || !column.matcher(name).matches()) {
                    continue;
                }
                if (!(sch + "." + tab).equals(loaded)) {
                    types = new LinkedHashMap<>();
                    for (TwinCatalog.Column c : Cdc.sourceColumns(s, new Names.Table(sch, tab))) {
                        types.put(c.name().toLowerCase(java.util.Locale.ROOT), c);
                    }
                    loaded = sch + "." + tab;
                }
                TwinCatalog.Column declared = s.declaredColumn(sch, tab, name);
                TwinCatalog.Column visible = types.get(name.toLowerCase(java.util.Locale.ROOT));
                if (visible == null) {
                    continue; // an invisible companion (a sql_variant's base type): not a column of the table
                }
                SqlType type = visible.type();
                boolean identity = declared != null ? declared.identity() : "YES".equals(rs.getString(7));
                boolean nullable = "YES".equals(rs.getString(5));
                String def = rs.getString(6);
                boolean computed = declared != null && declared.computed() != null;
                rows.add(row(s.database(), sch, tab, name, visible.ordinal(), type, identity, nullable,
                    def == null || identity || computed ? null : "(" + def + ")", declared));
            }
        }
        // ORDER BY TABLE_CAT, TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION in a case-insensitive collation
        rows.sort(java.util.Comparator.<Object[], String>comparing(r -> ((String) r[1]).toLowerCase(java.util.Locale.ROOT))
            .thenComparing(r -> ((String) r[2]).toLowerCase(java.util.Locale.ROOT)).thenComparing(r -> (Integer) r[16]));
        ResultWriter.write(COLUMNS, rows, out);
    }

    private static Object[] row(String db, String schema, String table, String column, int ordinal, SqlType type,
                                boolean identity, boolean nullable, String def, TwinCatalog.Column declared) {
        OdbcType o = OdbcType.of(type, identity);
        String typeName = o.typeName();
        if (declared != null && declared.userType() != null) {
            // sp_columns names an alias type's column by the alias ("Name"), with the base type's codes and sizes
            typeName = declared.userType() + (identity ? " identity" : "");
        }
        boolean computed = declared != null && declared.computed() != null;
        boolean sparse = declared != null && declared.sparse();
        String assembly = switch (type.kind()) {
            case HIERARCHYID -> "Microsoft.SqlServer.Types.SqlHierarchyId";
            case GEOGRAPHY -> "Microsoft.SqlServer.Types.SqlGeography";
            case GEOMETRY -> "Microsoft.SqlServer.Types.SqlGeometry";
            default -> null;
        };
        return new Object[] {db, schema, table, column, o.dataType(), typeName, o.precision(), o.length(),
            o.scale(), o.radix(), nullable ? 1 : 0, null, def, o.sqlDataType(), o.datetimeSub(), o.octets(), ordinal,
            nullable ? "YES" : "NO", null, null, null, (short) o.ssDataType(), identity ? "YES" : "NO",
            computed ? "YES" : "NO", (short) (sparse ? 1 : 0), (short) 0, assembly == null ? null : db,
            assembly == null ? null : "sys", assembly == null ? null : assembly + ", Microsoft.SqlServer.Types, "
            + "Version=11.0.0.0, Culture=neutral, PublicKeyToken=89845dcd8080cc91", null, null, null};
    }

    /** sp_pkeys @table_name, @table_owner, @table_qualifier (names, not patterns). */
    static void primaryKeys(EngineSession s, String table, String owner, String qualifier, Results out)
        throws SQLException, IOException, SqlServerError {
        if (qualifier != null && !qualifier.equalsIgnoreCase(s.database())) {
            throw new SqlServerError(15250, 1, 16, "The database name component of the object qualifier must be the "
                + "name of the current database.");
        }
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement st = s.h2.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME FROM "
            + "INFORMATION_SCHEMA.TABLES WHERE UPPER(TABLE_NAME) = UPPER(?) AND (? IS NULL OR UPPER(TABLE_SCHEMA) = "
            + "UPPER(?)) AND TABLE_SCHEMA NOT IN ('INFORMATION_SCHEMA', 'twin_catalog') ORDER BY TABLE_SCHEMA")) {
            st.setString(1, table);
            st.setString(2, owner);
            st.setString(3, owner);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    short seq = 1;
                    for (Map.Entry<String, String> k : primaryKey(s.h2, rs.getString(1), rs.getString(2)).entrySet()) {
                        rows.add(new Object[] {s.database(), rs.getString(1), rs.getString(2), k.getKey(), seq++,
                            k.getValue()});
                    }
                }
            }
        }
        ResultWriter.write(PKEYS, rows, out);
    }

    /** The primary key's columns in key order, each with the constraint name. */
    /** The H2 table's column names, lower case, in ordinal order (the triggers' row positions). */
    static List<String> columnNames(Connection c, String schema, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE "
            + "TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return columns;
    }

    static Map<String, String> primaryKey(Connection c, String schema, String table) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement st = c.prepareStatement("SELECT u.COLUMN_NAME, k.CONSTRAINT_NAME FROM "
            + "INFORMATION_SCHEMA.TABLE_CONSTRAINTS k JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE u ON "
            + "u.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND u.CONSTRAINT_NAME = k.CONSTRAINT_NAME WHERE "
            + "UPPER(k.TABLE_SCHEMA) = UPPER(?) AND UPPER(k.TABLE_NAME) = UPPER(?) AND k.CONSTRAINT_TYPE = "
            + "'PRIMARY KEY' ORDER BY u.ORDINAL_POSITION")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return out;
    }

    /** A T-SQL LIKE pattern ({@code %}, {@code _}, {@code [..]} classes and escapes) as a case-insensitive regex. */
    static Pattern like(String pattern) {
        if (pattern == null) {
            return Pattern.compile(".*", Pattern.DOTALL);
        }
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (ch == '%') {
                re.append(".*");
            } else if (ch == '_') {
                re.append('.');
            } else if (ch == '[') {
                int close = pattern.indexOf(']', i + 2);
                if (close < 0) {
                    re.append(Pattern.quote("["));
                    continue;
                }
                String body = pattern.substring(i + 1, close);
                boolean negate = body.startsWith("^") && body.length() > 1;
                StringBuilder cls = new StringBuilder(negate ? "[^" : "[");
                for (char b : (negate ? body.substring(1) : body).toCharArray()) {
                    cls.append(b == '-' ? "-" : Character.isLetterOrDigit(b) ? String.valueOf(b) : "\\" + b);
                }
                re.append(cls).append(']');
                i = close;
            } else {
                re.append(Pattern.quote(String.valueOf(ch)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
    }
}
