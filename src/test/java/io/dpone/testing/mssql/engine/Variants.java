package io.dpone.testing.mssql.engine;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code sql_variant}: the twin stores the value's text and, in an invisible companion column
 * ({@code c__twin_basetype}), the base type SQL Server would record for it, which
 * {@code SQL_VARIANT_PROPERTY(c, 'BaseType')} answers. The base type of an inserted value follows T-SQL's typing of
 * the expression: an integer literal is {@code int} ({@code numeric} beyond int's range), a literal with a decimal
 * point {@code numeric}, one with an exponent {@code float}, {@code N'..'} {@code nvarchar}, {@code '..'}
 * {@code varchar}, {@code 0x..} {@code varbinary}, {@code CAST(.. AS t)} / {@code CONVERT(t, ..)} {@code t}, and a
 * parameter the type mssql-jdbc sends for its Java value (a String as {@code nvarchar}, Integer {@code int}, Long
 * {@code bigint}, BigDecimal {@code decimal}, LocalDateTime {@code datetime2}, ...). Any other expression is
 * refused with a twin error rather than guessed.
 */
final class Variants {
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern DECIMAL = Pattern.compile("[+-]?([0-9]+\\.[0-9]*|\\.[0-9]+)");
    private static final Pattern FLOAT = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)[eE][+-]?[0-9]+");
    private static final Pattern BINARY = Pattern.compile("0[xX][0-9a-fA-F]*");
    private static final Pattern PARAMETER = Pattern.compile("@([A-Za-z_][A-Za-z0-9_$#]*)");
    private static final Pattern CAST = Pattern.compile("(?is)CAST\\s*\\((.*)\\s+AS\\s+([A-Za-z0-9_]+(?:\\s*\\([^)]*\\))?)\\s*\\)");
    private static final Pattern CONVERT = Pattern.compile("(?is)CONVERT\\s*\\(\\s*([A-Za-z0-9_]+(?:\\s*\\([^)]*\\))?)\\s*,.*\\)");

    private Variants() {
    }

    /** The base type name of an inserted value (null for NULL), or a twin error naming the column. */
    static String baseType(String expression, Map<String, Object> values, String column) throws SqlServerError {
        String e = expression.trim();
        String masked = SqlText.mask(e);
        Matcher m;
        if (e.equalsIgnoreCase("NULL")) {
            return null;
        } else if (e.startsWith("N'") || e.startsWith("n'")) {
            return masked.endsWith("'") && masked.indexOf('\'', 2) == masked.length() - 1 ? "nvarchar" : unknown(column);
        } else if (e.startsWith("'")) {
            return masked.endsWith("'") && masked.indexOf('\'', 1) == masked.length() - 1 ? "varchar" : unknown(column);
        } else if (INTEGER.matcher(e).matches()) {
            BigDecimal v = new BigDecimal(e);
            return v.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
                && v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0 ? "int" : "numeric";
        } else if (DECIMAL.matcher(e).matches()) {
            return "numeric";
        } else if (FLOAT.matcher(e).matches()) {
            return "float";
        } else if (BINARY.matcher(e).matches()) {
            return "varbinary";
        } else if ((m = PARAMETER.matcher(e)).matches()) {
            return ofValue(values.get(m.group(1).toLowerCase(Locale.ROOT)));
        } else if ((m = CAST.matcher(masked)).matches()) {
            return declared(e.substring(m.start(2), m.end(2)), column);
        } else if ((m = CONVERT.matcher(masked)).matches()) {
            return declared(e.substring(m.start(1), m.end(1)), column);
        }
        return unknown(column);
    }

    private static String declared(String type, String column) throws SqlServerError {
        try {
            return SqlType.parse(type).kind().sqlName();
        } catch (IllegalArgumentException ex) {
            return unknown(column);
        }
    }

    /** The type mssql-jdbc sends a parameter as, for the Java value it was given. */
    private static String ofValue(Object v) {
        if (v == null) {
            return null;
        }
        String[][] byClass = {{"String", "nvarchar"}, {"Integer", "int"}, {"Long", "bigint"}, {"Short", "smallint"},
            {"Byte", "tinyint"}, {"Boolean", "bit"}, {"BigDecimal", "decimal"}, {"Double", "float"}, {"Float", "real"},
            {"byte[]", "varbinary"}, {"LocalDateTime", "datetime2"}, {"LocalDate", "date"}, {"LocalTime", "time"},
            {"OffsetDateTime", "datetimeoffset"}, {"UUID", "uniqueidentifier"}};
        for (String[] c : byClass) {
            if (v.getClass().getSimpleName().equals(c[0])) {
                return c[1];
            }
        }
        return "nvarchar";
    }

    private static String unknown(String column) throws SqlServerError {
        throw new SqlServerError(50000, 1, 16, "mssql-twin: the base type of the value for sql_variant column '"
            + column + "' is not emulated for this expression; insert a literal, a CAST(.. AS type) or a parameter");
    }
}
