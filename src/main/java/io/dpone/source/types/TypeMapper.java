package io.dpone.source.types;

import java.sql.Types;
import java.util.Locale;
import java.util.Optional;

/**
 * Maps a source column's JDBC metadata to its type family. Works from the JDBC type code plus the driver's type
 * name, so it holds for mssql-jdbc and for H2 in MSSQLServer mode. Unknown types map to empty: the caller
 * blocks with {@code source.type_unsupported} naming the column; nothing is silently stringified.
 */
public final class TypeMapper {
    /** microsoft.sql.Types.DATETIMEOFFSET. */
    private static final int MSSQL_DATETIMEOFFSET = -155;
    /** microsoft.sql.Types / ODBC SQL_SS_TIME2, should a driver report it unmapped. */
    private static final int MSSQL_TIME = -154;
    /**
     * SQL Server types whose driver type code would map them to bytes or text silently: they are read through a
     * server-side conversion ({@code io.dpone.source.ColumnReads}), never by their type code.
     */
    private static final java.util.Set<String> CONVERTED_NAMES =
        java.util.Set.of("geography", "geometry", "hierarchyid", "sql_variant");

    private TypeMapper() {
    }

    public static Optional<ColumnType> map(int jdbcType, String typeName, int precision, int scale) {
        String name = typeName == null ? "" : typeName.toLowerCase(Locale.ROOT);
        if (CONVERTED_NAMES.contains(name)) {
            return Optional.empty(); // reported by the driver as VARBINARY/NVARCHAR, but not exactly representable
        }
        if (name.equals("xml")) {
            return Optional.of(new StringType()); // the document's text as the server returns it
        }
        if ((name.equals("timestamp") || name.equals("rowversion"))
            && (jdbcType == Types.BINARY || jdbcType == Types.VARBINARY)) {
            return Optional.of(new RowVersionType()); // SQL Server's timestamp is binary(8), never a date
        }
        if (name.equals("uniqueidentifier") || name.equals("uuid")) {
            return Optional.of(new UuidType());
        }
        if (name.equals("money") || name.equals("smallmoney")) {
            return Optional.of(new DecimalType(name.equals("money") ? 19 : 10, 4));
        }
        if (name.equals("smalldatetime")) {
            return Optional.of(new TimestampType(0, false));
        }
        if (name.equals("datetime")) {
            return Optional.of(new TimestampType(3, false));
        }
        return switch (jdbcType) {
            case Types.TINYINT -> Optional.of(new IntegerType(8, true));
            case Types.SMALLINT -> Optional.of(new IntegerType(16, false));
            case Types.INTEGER -> Optional.of(new IntegerType(32, false));
            case Types.BIGINT -> Optional.of(new IntegerType(64, false));
            case Types.BIT, Types.BOOLEAN -> Optional.of(new BoolType());
            case Types.DECIMAL, Types.NUMERIC -> Optional.of(new DecimalType(precision, Math.max(scale, 0)));
            case Types.REAL -> Optional.of(new FloatType(32));
            case Types.FLOAT, Types.DOUBLE -> Optional.of(new FloatType(64));
            case Types.CHAR, Types.VARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGVARCHAR, Types.LONGNVARCHAR,
                 Types.CLOB, Types.NCLOB -> Optional.of(new StringType());
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> Optional.of(new BinaryType());
            case Types.DATE -> Optional.of(new DateType());
            case Types.TIME, MSSQL_TIME -> Optional.of(new TimeType(scale < 0 ? 7 : Math.min(scale, 9)));
            case Types.TIMESTAMP -> Optional.of(new TimestampType(clampPrecision(scale), false));
            case Types.TIMESTAMP_WITH_TIMEZONE, MSSQL_DATETIMEOFFSET ->
                Optional.of(new TimestampType(clampPrecision(scale), true));
            default -> Optional.empty();
        };
    }

    private static int clampPrecision(int fractionalDigits) {
        return fractionalDigits < 0 ? 7 : Math.min(fractionalDigits, 9);
    }
}
