package io.dpone.source;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** T-SQL quoting. Identifiers are validated before they are bracket-quoted; nothing is spliced raw. */
public final class SqlServerDialect {
    private static final Pattern IDENTIFIER = io.dpone.manifest.Identifier.PATTERN;

    private SqlServerDialect() {
    }

    public static String quote(String identifier) {
        if (identifier == null || !IDENTIFIER.matcher(identifier).matches()) {
            throw new IllegalArgumentException("invalid SQL Server identifier");
        }
        return "[" + identifier + "]";
    }

    public static String selectAll(String schema, String table, List<SourceColumn> columns) {
        return select(schema, table, columns, 0, List.of());
    }

    /**
     * {@code SELECT [TOP (n)] cols FROM [s].[t] [ORDER BY key]}; each column by its {@link SourceColumn#selectItem()}
     * (the quoted name, or its server-side conversion aliased to it); the limit is a number, never text.
     */
    public static String select(String schema, String table, List<SourceColumn> columns, long limit,
                                List<String> orderBy) {
        return "SELECT " + (limit > 0 ? "TOP (" + limit + ") " : "")
            + columns.stream().map(SourceColumn::selectItem).collect(Collectors.joining(", "))
            + " FROM " + quote(schema) + "." + quote(table)
            + (limit > 0 && !orderBy.isEmpty()
                ? " ORDER BY " + orderBy.stream().map(SqlServerDialect::quote).collect(Collectors.joining(", ")) : "");
    }

    /**
     * The row count SQL Server keeps in its catalogue for a table (heap or clustered index, all partitions), with
     * the schema and the table name as parameters 1 and 2: no scan, and readable with VIEW DEFINITION on the table.
     */
    public static String estimatedRows() {
        return "SELECT SUM(p.rows) FROM sys.partitions p JOIN sys.tables t ON t.object_id = p.object_id "
            + "JOIN sys.schemas s ON s.schema_id = t.schema_id WHERE s.name = ? AND t.name = ? AND p.index_id IN (0, 1)";
    }

    /** The H2 stand-in's estimate ({@code INFORMATION_SCHEMA.TABLES.ROW_COUNT_ESTIMATE}), parameters as above. */
    public static String h2EstimatedRows() {
        return "SELECT ROW_COUNT_ESTIMATE FROM INFORMATION_SCHEMA.TABLES WHERE UPPER(TABLE_SCHEMA) = UPPER(?) "
            + "AND UPPER(TABLE_NAME) = UPPER(?)";
    }

    /**
     * An ordered read of the key columns that returns every {@code step}-th key (parameter 1) with its row number:
     * {@code SELECT k.., rn FROM (SELECT k.., ROW_NUMBER() OVER (ORDER BY k..)) WHERE (rn - 1) % ? = 0 ORDER BY rn}.
     * The first key is always returned. It reads the key of every row once, in index order, and streams (no spool).
     */
    public static String keySample(String schema, String table, List<SourceColumn> key) {
        String cols = key.stream().map(c -> quote(c.name())).collect(Collectors.joining(", "));
        return "SELECT " + cols + ", [dpone_rn] FROM (SELECT " + cols + ", ROW_NUMBER() OVER (ORDER BY " + cols
            + ") AS [dpone_rn] FROM " + quote(schema) + "." + quote(table) + ") AS [dpone_keys] WHERE ([dpone_rn] - 1) % ? "
            + "= 0 ORDER BY [dpone_rn]";
    }

    /**
     * The key at a row position (parameter 1, 0-based) in key order: {@code SELECT k.. FROM [s].[t] ORDER BY k..
     * OFFSET ? ROWS FETCH NEXT 1 ROWS ONLY}. The H2 stand-in's way to the same bounds (its window functions
     * materialise and sort the whole table: minutes at two million rows); each walks the index up to its position.
     */
    public static String keyAt(String schema, String table, List<SourceColumn> key) {
        String cols = key.stream().map(c -> quote(c.name())).collect(Collectors.joining(", "));
        return "SELECT " + cols + " FROM " + quote(schema) + "." + quote(table) + " ORDER BY " + cols
            + " OFFSET ? ROWS FETCH NEXT 1 ROWS ONLY";
    }

    /** The exact row count ({@code COUNT_BIG(*)} on SQL Server, which reads the narrowest index; H2's COUNT(*)). */
    public static String rowCount(String schema, String table, boolean countBig) {
        return "SELECT " + (countBig ? "COUNT_BIG(*)" : "COUNT(*)") + " FROM " + quote(schema) + "." + quote(table);
    }

    /**
     * The histogram of the primary key's statistics (on its leading column), step by step, for the table named by
     * parameter 1 ({@code [schema].[table]}): {@code sys.dm_db_stats_histogram} (SQL Server 2016
     * SP1 CU2 and later); reads no row of the table.
     */
    public static String keyHistogram() {
        return "SELECT h.range_hi_key, h.range_rows, h.equal_rows FROM sys.indexes i "
            + "CROSS APPLY sys.dm_db_stats_histogram(i.object_id, i.index_id) h "
            + "WHERE i.object_id = OBJECT_ID(?) AND i.is_primary_key = 1 ORDER BY h.step_number";
    }

    /** The primary key's index type for the table named by parameter 1 (1: clustered), read from the catalogue. */
    public static String keyIndexType() {
        return "SELECT i.type FROM sys.indexes i WHERE i.object_id = OBJECT_ID(?) AND i.is_primary_key = 1";
    }

    /**
     * {@code SELECT cols FROM [s].[t] WHERE <range> ORDER BY k..}: the range as {@link #rangePredicate} writes it; its
     * bound values are appended to {@code params} in the order of the placeholders. In key order (a clustered primary
     * key's own order: no sort), so a read that loses its connection resumes at the last key it delivered
     * ({@link ResumableRangeCursor}).
     */
    public static String selectRange(String schema, String table, List<SourceColumn> columns, List<SourceColumn> key,
                                     KeyRange range, List<Object> params) {
        String where = rangePredicate(key, range, params);
        return selectAll(schema, table, columns) + (where.isEmpty() ? "" : " WHERE " + where) + " ORDER BY "
            + key.stream().map(c -> quote(c.name())).collect(Collectors.joining(", "));
    }

    /**
     * The predicate of a key range, a row-value comparison written out (SQL Server has no row constructors) in the
     * form whose leading conjunct on the first key column lets the server seek the clustered index:
     * {@code (a, b) >= (x, y)} is {@code [a] >= ? AND ([a] > ? OR [b] >= ?)} and {@code (a, b) < (x, y)} is
     * {@code [a] <= ? AND ([a] < ? OR [b] < ?)}, nested the same way for more columns; a prefix bound compares its
     * columns only. Each placeholder is typed like its column ({@link #parameter}); the values go to {@code params}.
     * Empty for a range open at both ends.
     */
    public static String rangePredicate(List<SourceColumn> key, KeyRange range, List<Object> params) {
        List<String> parts = new java.util.ArrayList<>();
        if (range.from() != null) {
            parts.add(bound(key, range.from(), 0, true, params));
        }
        if (range.to() != null) {
            parts.add(bound(key, range.to(), 0, false, params));
        }
        return parts.size() == 2 ? "(" + parts.get(0) + ") AND (" + parts.get(1) + ")" : String.join("", parts);
    }

    private static String bound(List<SourceColumn> key, List<Object> values, int i, boolean lower, List<Object> params) {
        String c = quote(key.get(i).name());
        String p = parameter(key.get(i));
        if (i == values.size() - 1) {
            params.add(values.get(i));
            return c + (lower ? " >= " : " < ") + p;
        }
        params.add(values.get(i));
        params.add(values.get(i));
        return c + (lower ? " >= " : " <= ") + p + " AND (" + c + (lower ? " > " : " < ") + p + " OR "
            + bound(key, values, i + 1, lower, params) + ")";
    }

    /**
     * The placeholder for a bound of key column {@code c}, typed so the comparison happens in the column's own type
     * and collation: a Unicode string parameter against a {@code char}/{@code varchar} column would convert the column
     * (no seek, and under a SQL collation another order), so it is cast to {@code varchar}; a
     * {@code uniqueidentifier} bound arrives as text from mssql-jdbc and is cast to the type. Other types are bound as
     * the driver returned them (same type, or a wider one of the same order).
     */
    static String parameter(SourceColumn c) {
        return switch (c.sourceType().toLowerCase(java.util.Locale.ROOT)) {
            case "char", "varchar" -> "CAST(? AS varchar(8000))";
            case "uniqueidentifier" -> "CAST(? AS uniqueidentifier)";
            default -> "?";
        };
    }
}
