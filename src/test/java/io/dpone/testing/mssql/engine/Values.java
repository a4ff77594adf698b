package io.dpone.testing.mssql.engine;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.UUID;

/** Reads an H2 value in the Java form {@link Results#row} documents for the column's declared type. */
final class Values {
    private Values() {
    }

    static Object read(ResultSet rs, int i, SqlType type) throws SQLException {
        Object v = switch (type.kind()) {
            case TINYINT, SMALLINT -> shortValue(rs.getObject(i));
            case INT -> rs.getObject(i, Integer.class);
            case BIGINT -> rs.getObject(i, Long.class);
            case BIT -> rs.getObject(i, Boolean.class);
            case DECIMAL, NUMERIC, MONEY, SMALLMONEY -> decimal(rs.getBigDecimal(i), type);
            case REAL -> rs.getObject(i, Float.class);
            case FLOAT -> rs.getObject(i, Double.class);
            case CHAR, VARCHAR, NCHAR, NVARCHAR, TEXT, NTEXT, XML, SQL_VARIANT, HIERARCHYID -> text(rs.getObject(i));
            case BINARY, VARBINARY, IMAGE, ROWVERSION, GEOGRAPHY, GEOMETRY -> bytes(rs.getObject(i));
            case DATE -> rs.getObject(i, LocalDate.class);
            case TIME -> rs.getObject(i, LocalTime.class);
            case DATETIME2, DATETIME, SMALLDATETIME -> rs.getObject(i, LocalDateTime.class);
            case DATETIMEOFFSET -> rs.getObject(i, OffsetDateTime.class);
            case UNIQUEIDENTIFIER -> uuid(rs.getObject(i));
        };
        return rs.wasNull() ? null : v;
    }

    private static Object shortValue(Object v) {
        return v == null ? null : v instanceof Boolean b ? (short) (b ? 1 : 0) : (Object) ((Number) v).shortValue();
    }

    /** A decimal carries exactly the declared scale (SQL Server sends it so). */
    private static BigDecimal decimal(BigDecimal v, SqlType type) {
        if (v == null) {
            return null;
        }
        int scale = switch (type.kind()) {
            case MONEY, SMALLMONEY -> 4;
            default -> type.scale();
        };
        return v.setScale(scale, RoundingMode.HALF_UP);
    }

    private static String text(Object v) throws SQLException {
        if (v instanceof Clob c) {
            return c.getSubString(1, (int) c.length());
        }
        return v == null ? null : v.toString();
    }

    private static byte[] bytes(Object v) throws SQLException {
        if (v instanceof Blob b) {
            return b.getBytes(1, (int) b.length());
        }
        return (byte[]) v;
    }

    private static UUID uuid(Object v) {
        return v == null ? null : v instanceof UUID u ? u : UUID.fromString(v.toString());
    }

    /** A value as the client sent it (the {@link Results} forms), bound to H2. */
    static void bind(java.sql.PreparedStatement st, int index, Object value) throws SQLException {
        if (value == null) {
            st.setNull(index, java.sql.Types.NULL);
        } else if (value instanceof String s) {
            st.setString(index, s);
        } else {
            st.setObject(index, value);
        }
    }
}
