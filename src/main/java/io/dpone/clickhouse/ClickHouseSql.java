package io.dpone.clickhouse;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Quoting for ClickHouse SQL. Identifiers must match the manifest rule and are back-quoted; string literals
 * escape backslash and quote, so no value is ever spliced raw.
 */
public final class ClickHouseSql {
    public static final Pattern IDENTIFIER = io.dpone.manifest.Identifier.PATTERN;

    private ClickHouseSql() {
    }

    /** Back-quotes a validated identifier; throws when it does not match {@link #IDENTIFIER}. */
    public static String id(String identifier) {
        if (identifier == null || !IDENTIFIER.matcher(identifier).matches()) {
            throw new IllegalArgumentException("invalid ClickHouse identifier");
        }
        return "`" + identifier + "`";
    }

    /** {@code `db`.`table`}. */
    public static String table(String database, String table) {
        return id(database) + "." + id(table);
    }

    /** A single-quoted string literal with every special character escaped. */
    public static String literal(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('\'');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\'' -> out.append("\\'");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\0' -> out.append("\\0");
                default -> out.append(c);
            }
        }
        return out.append('\'').toString();
    }

    /** Comma-separated quoted identifiers. */
    public static String idList(List<String> identifiers) {
        return identifiers.stream().map(ClickHouseSql::id).collect(Collectors.joining(", "));
    }

    /**
     * {@code INSERT INTO table (columns) SETTINGS settings SELECT v1, v2, ...}: one row whose values are SQL
     * expressions already made safe ({@link #literal}, numbers). Never {@code VALUES}: the embedded engine runs
     * statements the way clickhouse-local does, and it appends a non-empty standard input of the process to an
     * INSERT's inline data (a CDC tick started with data on its stdin failed with
     * {@code CANNOT_PARSE_INPUT_ASSERTION_FAILED}); an {@code INSERT ... SELECT} has no inline data to append to.
     *
     * @param settings the {@code SETTINGS} list without the keyword, or an empty string
     */
    public static String insertRow(String table, List<String> columns, String settings, List<String> values) {
        if (columns.size() != values.size()) {
            throw new IllegalArgumentException(columns.size() + " columns but " + values.size() + " values");
        }
        return "INSERT INTO " + table + " (" + idList(columns) + ")" + (settings.isBlank() ? "" : " SETTINGS " + settings)
            + " SELECT " + String.join(", ", values);
    }
}
