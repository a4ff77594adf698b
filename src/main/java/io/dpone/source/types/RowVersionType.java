package io.dpone.source.types;

import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;

/**
 * ROWVERSION (whose type name is {@code timestamp}: eight bytes, never a date) as {@code UInt64}: the bytes read as
 * one big-endian unsigned number, so the order of versions is the order of the numbers. The canonical value is a
 * {@code Long} holding the unsigned 64 bits.
 */
public record RowVersionType() implements ColumnType {
    @Override
    public String clickHouseType() {
        return "UInt64";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        byte[] b = rs.getBytes(index);
        return b == null ? null : fromBytes(b);
    }

    /**
     * An integer (0 .. 2^64-1: a {@code Long} is taken as its unsigned bits), eight bytes, or their base64 text
     * (the JSON form of binary values).
     */
    @Override
    public Object coerce(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            long v = ((Number) value).longValue();
            if (v < 0) {
                throw new ValueOutOfRangeException("rowversion is unsigned");
            }
            return v;
        }
        if (value instanceof BigInteger b) {
            if (b.signum() < 0 || b.bitLength() > 64) {
                throw new ValueOutOfRangeException("value outside UInt64");
            }
            return b.longValue();
        }
        if (value instanceof byte[] b) {
            return fromBytes(b);
        }
        if (value instanceof String s) {
            try {
                return fromBytes(Base64.getDecoder().decode(s));
            } catch (IllegalArgumentException e) {
                throw new ValueOutOfRangeException("value is not base64");
            }
        }
        throw new ValueOutOfRangeException("value is not a rowversion");
    }

    private static long fromBytes(byte[] b) {
        if (b.length != 8) {
            throw new ValueOutOfRangeException("rowversion is not eight bytes");
        }
        long v = 0;
        for (byte x : b) {
            v = (v << 8) | (x & 0xFF);
        }
        return v;
    }
}
