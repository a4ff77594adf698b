package io.dpone.testing.mssql.engine;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A declared SQL Server type, as a column of the twin's catalogue holds it ({@code decimal(18,4)},
 * {@code varchar(40) COLLATE Chinese_PRC_CI_AS}, {@code nvarchar(max)}, {@code datetime2(7)}). The wire encodes a
 * result column from this type, never from H2's.
 *
 * @param kind      the type family
 * @param length    characters for {@code char}/{@code nchar}/{@code varchar}/{@code nvarchar}, bytes for
 *                  {@code binary}/{@code varbinary}; {@link #MAX} for {@code (max)}; 0 where it does not apply
 * @param precision {@code decimal}/{@code numeric} precision; 0 elsewhere
 * @param scale     {@code decimal}/{@code numeric} scale, fractional-second digits of {@code time},
 *                  {@code datetime2}, {@code datetimeoffset}; 0 elsewhere
 * @param collation the collation name of a character type (the database default when not declared); null for
 *                  other types
 */
public record SqlType(Kind kind, int length, int precision, int scale, String collation) {
    public static final int MAX = -1;
    public static final String DEFAULT_COLLATION = "SQL_Latin1_General_CP1_CI_AS";

    /** The type families the twin encodes. */
    public enum Kind {
        TINYINT, SMALLINT, INT, BIGINT, BIT, DECIMAL, NUMERIC, MONEY, SMALLMONEY, REAL, FLOAT,
        CHAR, VARCHAR, NCHAR, NVARCHAR, TEXT, NTEXT, BINARY, VARBINARY, IMAGE,
        DATE, TIME, DATETIME2, DATETIMEOFFSET, DATETIME, SMALLDATETIME, UNIQUEIDENTIFIER, SQL_VARIANT, XML,
        /** {@code rowversion}, which SQL Server names {@code timestamp} (a binary(8) the engine fills). */
        ROWVERSION,
        /** The system CLR types (sys.types: system_type_id 240). */
        HIERARCHYID, GEOGRAPHY, GEOMETRY;

        public String sqlName() {
            return this == ROWVERSION ? "timestamp" : name().toLowerCase(Locale.ROOT);
        }

        /** A system CLR type: the twin stores it in its own form and refuses to send it raw. */
        public boolean isClr() {
            return this == HIERARCHYID || this == GEOGRAPHY || this == GEOMETRY;
        }

        public boolean isCharacter() {
            return this == CHAR || this == VARCHAR || this == NCHAR || this == NVARCHAR || this == TEXT
                || this == NTEXT;
        }

        public boolean isUnicode() {
            return this == NCHAR || this == NVARCHAR || this == NTEXT || this == XML;
        }
    }

    private static final Pattern DECLARED = Pattern.compile(
        "\\s*\\[?([A-Za-z0-9_]+)\\]?\\s*(?:\\(\\s*([0-9]+|max)\\s*(?:,\\s*([0-9]+)\\s*)?\\))?"
            + "(?:\\s+COLLATE\\s+([A-Za-z0-9_]+))?\\s*", Pattern.CASE_INSENSITIVE);

    /**
     * Parses a declared type. {@code sysname} is {@code nvarchar(128)}, {@code rowversion} is {@code timestamp}
     * (length 8); lengths, precisions and scales default as SQL Server defaults them.
     *
     * @throws IllegalArgumentException for a type the twin does not know
     */
    public static SqlType parse(String declared) {
        Matcher m = DECLARED.matcher(declared);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a SQL Server type: " + declared);
        }
        String name = m.group(1).toLowerCase(Locale.ROOT);
        String a = m.group(2);
        Integer first = a == null ? null : a.equalsIgnoreCase("max") ? MAX : Integer.parseInt(a);
        Integer second = m.group(3) == null ? null : Integer.parseInt(m.group(3));
        String collation = m.group(4);
        switch (name) {
            case "sysname":
                return new SqlType(Kind.NVARCHAR, 128, 0, 0, collation(collation));
            case "timestamp":
            case "rowversion":
                return new SqlType(Kind.ROWVERSION, 8, 0, 0, null);
            case "decimal":
            case "numeric":
                return new SqlType(Kind.valueOf(name.toUpperCase(Locale.ROOT)), 0, first == null ? 18 : first,
                    second == null ? 0 : second, null);
            case "time":
            case "datetime2":
            case "datetimeoffset":
                return new SqlType(Kind.valueOf(name.toUpperCase(Locale.ROOT)), 0, 0, first == null ? 7 : first, null);
            case "float":
                // float(1..24) is real, float(25..53) and float are float
                return first != null && first <= 24 ? new SqlType(Kind.REAL, 0, 0, 0, null)
                    : new SqlType(Kind.FLOAT, 0, 0, 0, null);
            case "char":
            case "varchar":
            case "nchar":
            case "nvarchar":
                return new SqlType(Kind.valueOf(name.toUpperCase(Locale.ROOT)), first == null ? 1 : first, 0, 0,
                    collation(collation));
            case "text":
            case "ntext":
                return new SqlType(Kind.valueOf(name.toUpperCase(Locale.ROOT)), MAX, 0, 0, collation(collation));
            case "binary":
            case "varbinary":
                return new SqlType(Kind.valueOf(name.toUpperCase(Locale.ROOT)), first == null ? 1 : first, 0, 0, null);
            case "image":
                return new SqlType(Kind.IMAGE, MAX, 0, 0, null);
            default:
                try {
                    return new SqlType(Kind.valueOf(name.toUpperCase(Locale.ROOT)), 0, 0, 0, null);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("not a SQL Server type the twin knows: " + declared);
                }
        }
    }

    private static String collation(String declared) {
        return declared == null ? DEFAULT_COLLATION : declared;
    }

    public static SqlType of(Kind kind) {
        return new SqlType(kind, 0, 0, 0, null);
    }

    public boolean isMax() {
        return length == MAX;
    }

    /** The declaration as SQL Server prints it ({@code decimal(18,4)}, {@code nvarchar(max)}). */
    public String declaration() {
        return switch (kind) {
            case DECIMAL, NUMERIC -> kind.sqlName() + "(" + precision + "," + scale + ")";
            case TIME, DATETIME2, DATETIMEOFFSET -> kind.sqlName() + "(" + scale + ")";
            case CHAR, VARCHAR, NCHAR, NVARCHAR, BINARY, VARBINARY ->
                kind.sqlName() + "(" + (isMax() ? "max" : String.valueOf(length)) + ")";
            default -> kind.sqlName();
        };
    }
}
