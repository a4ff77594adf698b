package io.dpone.source.types;

import java.math.BigDecimal;
import java.math.BigInteger;

import java.sql.ResultSet;
import java.sql.SQLException;

/** TINYINT (UInt8, SQL Server's is unsigned), SMALLINT (Int16), INT (Int32), BIGINT (Int64). */
public record IntegerType(int bits, boolean unsigned) implements ColumnType {
    @Override
    public String clickHouseType() {
        return (unsigned ? "UInt" : "Int") + bits;
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        long v = rs.getLong(index);
        if (rs.wasNull()) {
            return null;
        }
        if (unsigned && (v < 0 || v >= (1L << bits))) {
            throw new ValueOutOfRangeException("value outside " + clickHouseType());
        }
        return v;
    }

    @Override
    public Object coerce(Object value) {
        if (value == null) {
            return null;
        }
        long v;
        try {
            if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
                v = ((Number) value).longValue();
            } else if (value instanceof BigInteger b) {
                v = b.longValueExact();
            } else if (value instanceof BigDecimal d) {
                v = d.longValueExact();
            } else {
                throw new ValueOutOfRangeException("value is not an integer");
            }
        } catch (ArithmeticException e) {
            throw new ValueOutOfRangeException("value outside " + clickHouseType());
        }
        long min = unsigned ? 0 : bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
        long max = bits == 64 ? Long.MAX_VALUE : unsigned ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
        if (v < min || v > max) {
            throw new ValueOutOfRangeException("value outside " + clickHouseType());
        }
        return v;
    }
}
