package io.dpone.source.types;

import java.math.BigInteger;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.SQLException;

/** DECIMAL/NUMERIC(p,s) and MONEY as Decimal(p,s): precision and scale kept, never rounded. */
public record DecimalType(int precision, int scale) implements ColumnType {
    public DecimalType {
        if (precision < 1 || precision > 76 || scale < 0 || scale > precision) {
            throw new IllegalArgumentException("unsupported decimal precision/scale");
        }
    }

    @Override
    public String clickHouseType() {
        return "Decimal(" + precision + ", " + scale + ")";
    }

    @Override
    public Object read(ResultSet rs, int index) throws SQLException {
        BigDecimal v = rs.getBigDecimal(index);
        return v == null ? null : exact(v);
    }

    /** A decimal number (or an integer); a floating-point value is refused (its binary value is not exact). */
    @Override
    public Object coerce(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof BigDecimal d) {
            return exact(d);
        }
        if (value instanceof BigInteger b) {
            return exact(new BigDecimal(b));
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return exact(BigDecimal.valueOf(((Number) value).longValue()));
        }
        throw new ValueOutOfRangeException("value is not a decimal number");
    }

    private BigDecimal exact(BigDecimal v) {
        BigDecimal exact;
        try {
            exact = v.setScale(scale, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new ValueOutOfRangeException("decimal value has more fractional digits than scale " + scale);
        }
        // precision() = digits of the unscaled value, so this is |unscaled| >= 10^precision without a BigInteger
        if (exact.precision() > precision) {
            throw new ValueOutOfRangeException("decimal value exceeds precision " + precision);
        }
        return exact;
    }

    /** Bytes of the little-endian two's complement integer ClickHouse stores for this precision. */
    public int storageBytes() {
        return precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32;
    }
}
