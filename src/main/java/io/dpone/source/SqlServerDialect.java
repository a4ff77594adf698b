package io.dpone.source;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** T-SQL quoting. Identifiers are validated before they are bracket-quoted; nothing is spliced raw. */
public final class SqlServerDialect {
    private static final Pattern IDENTIFIER = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*$");

    private SqlServerDialect() {
    }

    public static String quote(String identifier) {
        if (identifier == null || !IDENTIFIER.matcher(identifier).matches()) {
            throw new IllegalArgumentException("invalid SQL Server identifier");
        }
        return "[" + identifier + "]";
    }

    public static String selectAll(String schema, String table, List<String> columns) {
        return select(schema, table, columns, 0, List.of());
    }

    /** {@code SELECT [TOP (n)] cols FROM [s].[t] [ORDER BY key]}; the limit is a number, never text. */
    public static String select(String schema, String table, List<String> columns, long limit, List<String> orderBy) {
        return "SELECT " + (limit > 0 ? "TOP (" + limit + ") " : "")
            + columns.stream().map(SqlServerDialect::quote).collect(Collectors.joining(", "))
            + " FROM " + quote(schema) + "." + quote(table)
            + (limit > 0 && !orderBy.isEmpty()
                ? " ORDER BY " + orderBy.stream().map(SqlServerDialect::quote).collect(Collectors.joining(", ")) : "");
    }
}
