package io.dpone.source.types;

import java.math.BigDecimal;
import java.math.BigInteger;

import java.sql.ResultSet;
import java.sql.SQLException;

/** REAL as Float32 and FLOAT as Float64; values travel by their exact bits (NaN payloads and -0.0 included). */
public record FloatType(int bits) implements ColumnType {
    @Override
    public String clickHouseType() {
        return "Float" + bits;
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        if (bits == 32) {
            float f = rs.getFloat(index);
            return rs.wasNull() ? null : f;
        }
        double d = rs.getDouble(index);
        return rs.wasNull() ? null : d;
    }

    /**
     * A {@code Double}/{@code Float} (its bits kept) or a JSON number, read as the nearest binary value the way any
     * JSON reader reads it (the shortest decimal text of a double reads back to the same bits). A number beyond the
     * type's range (it would read as infinity) is refused.
     */
    @Override
    public Object coerce(Object value) {
        if (value == null) {
            return null;
        }
        if (bits == 32 && value instanceof Float) {
            return value;
        }
        if (bits == 64 && (value instanceof Double || value instanceof Float)) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof BigDecimal || value instanceof BigInteger || value instanceof Long
            || value instanceof Integer) {
            String text = value instanceof BigDecimal d ? d.toString() : value.toString();
            if (bits == 32) {
                float f = Float.parseFloat(text);
                if (Float.isInfinite(f)) {
                    throw new ValueOutOfRangeException("value outside Float32");
                }
                return f;
            }
            double d = Double.parseDouble(text);
            if (Double.isInfinite(d)) {
                throw new ValueOutOfRangeException("value outside Float64");
            }
            return d;
        }
        throw new ValueOutOfRangeException("value is not a number");
    }
}
