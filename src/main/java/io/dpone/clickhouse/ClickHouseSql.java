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
}
