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

    /** {@code SELECT MIN([k]), MAX([k]) FROM [s].[t]}: two index seeks on a primary key. */
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

    public static String keyBounds(String schema, String table, String key) {
        return "SELECT MIN(" + quote(key) + "), MAX(" + quote(key) + ") FROM " + quote(schema) + "." + quote(table);
    }

    /**
     * {@code SELECT cols FROM [s].[t] WHERE [k] >= ? AND [k] < ? ORDER BY [k]}, each bound present only when the range
     * has it; the bounds are bound as parameters in that order ({@link KeyRange#fromInclusive()}, then
     * {@link KeyRange#toExclusive()}). In key order (a clustered primary key's own order: no sort), so a read that
     * loses its connection resumes after the last key it delivered ({@link ResumableRangeCursor}).
     */
    public static String selectRange(String schema, String table, List<SourceColumn> columns, KeyRange range) {
        List<String> where = new java.util.ArrayList<>();
        if (range.fromInclusive() != null) {
            where.add(quote(range.column()) + " >= ?");
        }
        if (range.toExclusive() != null) {
            where.add(quote(range.column()) + " < ?");
        }
        return selectAll(schema, table, columns) + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
            + " ORDER BY " + quote(range.column());
    }
}
