package io.dpone.source.types;

import java.sql.Types;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL Server type names as text ({@code decimal(18,2)}, {@code datetime2(7)}, {@code nvarchar(max)}) and the type
 * families they map to through {@link TypeMapper}: the form a CDC events file declares its columns in and the form
 * the CDC log records each payload column's source type in. {@link #name} gives one canonical name per family, which
 * {@link #parse} maps back to the same family.
 */
public final class SqlServerTypeNames {
    private static final Pattern NAME = Pattern.compile(
        "\\s*([a-z0-9_]+)\\s*(?:\\(\\s*(max|\\d{1,4})\\s*(?:,\\s*(\\d{1,3})\\s*)?\\))?\\s*");

    private SqlServerTypeNames() {
    }

    /** The family of {@code text} (case-insensitive), or empty for an unknown or unsupported type. */
    public static Optional<ColumnType> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = NAME.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Optional.empty();
        }
        String name = m.group(1);
        Integer first = m.group(2) == null || m.group(2).equals("max") ? null : Integer.valueOf(m.group(2));
        Integer second = m.group(3) == null ? null : Integer.valueOf(m.group(3));
        if ((name.equals("datetime2") || name.equals("datetimeoffset") || name.equals("time")) && first != null
            && first > 7) {
            return Optional.empty(); // SQL Server's fractional seconds end at 7 digits
        }
        try {
            return switch (name) {
                case "tinyint" -> TypeMapper.map(Types.TINYINT, name, 0, 0);
                case "smallint" -> TypeMapper.map(Types.SMALLINT, name, 0, 0);
                case "int" -> TypeMapper.map(Types.INTEGER, name, 0, 0);
                case "bigint" -> TypeMapper.map(Types.BIGINT, name, 0, 0);
                case "bit" -> TypeMapper.map(Types.BIT, name, 0, 0);
                case "decimal", "numeric" -> TypeMapper.map(Types.DECIMAL, name, first == null ? 18 : first,
                    second == null ? 0 : second);
                case "money", "smallmoney", "datetime", "smalldatetime", "uniqueidentifier" ->
                    TypeMapper.map(Types.OTHER, name, 0, 0);
                case "real" -> TypeMapper.map(Types.REAL, name, 0, 0);
                case "float" -> TypeMapper.map(first != null && first <= 24 ? Types.REAL : Types.DOUBLE, name, 0, 0);
                case "char", "varchar", "nchar", "nvarchar", "text", "ntext" ->
                    TypeMapper.map(Types.NVARCHAR, name, 0, 0);
                case "binary", "varbinary", "image" -> TypeMapper.map(Types.VARBINARY, name, 0, 0);
                case "date" -> TypeMapper.map(Types.DATE, name, 0, 0);
                case "time" -> TypeMapper.map(Types.TIME, name, 0, first == null ? 7 : first);
                case "timestamp", "rowversion" -> TypeMapper.map(Types.BINARY, name, 8, 0);
                case "xml" -> TypeMapper.map(Types.LONGNVARCHAR, name, 0, 0);
                case "datetime2" -> TypeMapper.map(Types.TIMESTAMP, name, 0, first == null ? 7 : first);
                case "datetimeoffset" -> TypeMapper.map(Types.TIMESTAMP_WITH_TIMEZONE, name, 0,
                    first == null ? 7 : first);
                default -> Optional.empty();
            };
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // decimal(0,0), decimal(5,7), datetime2(12): no such type
        }
    }

    /** The canonical SQL Server name of a family: {@code parse(name(t))} is {@code t}. */
    public static String name(ColumnType t) {
        if (t instanceof IntegerType i) {
            return switch (i.bits()) {
                case 8 -> "tinyint";
                case 16 -> "smallint";
                case 32 -> "int";
                default -> "bigint";
            };
        }
        if (t instanceof DecimalType d) {
            return "decimal(" + d.precision() + "," + d.scale() + ")";
        }
        if (t instanceof FloatType f) {
            return f.bits() == 32 ? "real" : "float";
        }
        if (t instanceof TimestampType ts) {
            return (ts.withOffset() ? "datetimeoffset(" : "datetime2(") + ts.precision() + ")";
        }
        if (t instanceof BoolType) {
            return "bit";
        }
        if (t instanceof StringType) {
            return "nvarchar(max)";
        }
        if (t instanceof BinaryType) {
            return "varbinary(max)";
        }
        if (t instanceof DateType) {
            return "date";
        }
        if (t instanceof TimeType tm) {
            return "time(" + tm.precision() + ")";
        }
        if (t instanceof RowVersionType) {
            return "rowversion";
        }
        return "uniqueidentifier";
    }
}
