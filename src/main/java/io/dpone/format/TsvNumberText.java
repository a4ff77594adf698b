package io.dpone.format;

import io.dpone.source.types.DecimalType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.ValueOutOfRangeException;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The TabSeparated text of numbers: integers range-checked against their column type, decimals as plain digits at
 * exactly the declared scale, floats as Java's shortest round-trip text with only the two NaNs ClickHouse parses
 * back bit for bit.
 */
final class TsvNumberText {
    private static final long DOUBLE_NAN = 0x7ff8000000000000L;
    private static final int FLOAT_NAN = 0x7fc00000;

    private TsvNumberText() {
    }

    static void integer(IntegerType t, long v, ByteBuf out) {
        int bits = t.bits();
        if (bits < 64) {
            long min = t.unsigned() ? 0 : -(1L << (bits - 1));
            long max = t.unsigned() ? (1L << bits) - 1 : (1L << (bits - 1)) - 1;
            if (v < min || v > max) {
                throw new ValueOutOfRangeException("value outside " + t.clickHouseType());
            }
        }
        decimalLong(v, out);
    }

    static void decimalLong(long v, ByteBuf out) {
        if (v == Long.MIN_VALUE) {
            TsvText.ascii("-9223372036854775808", out);
            return;
        }
        if (v < 0) {
            out.writeByte('-');
            v = -v;
        }
        int digits = 1;
        for (long x = v; x >= 10; x /= 10) {
            digits++;
        }
        int at = out.reserve(digits);
        byte[] a = out.array();
        for (int p = at + digits - 1; p >= at; p--) {
            a[p] = (byte) ('0' + (int) (v % 10));
            v /= 10;
        }
    }

    /** Plain digits at exactly the declared scale (rescaled only when that loses nothing). */
    static void decimal(DecimalType t, BigDecimal v, ByteBuf out) {
        BigDecimal exact = v;
        if (v.scale() != t.scale()) {
            try {
                exact = v.setScale(t.scale(), RoundingMode.UNNECESSARY);
            } catch (ArithmeticException e) {
                throw new ValueOutOfRangeException("decimal value has more fractional digits than scale " + t.scale());
            }
        }
        if (exact.precision() > t.precision()) {
            throw new ValueOutOfRangeException("decimal value exceeds precision " + t.precision());
        }
        if (exact.precision() <= 18) {
            // compact: the unscaled value fits a long; write its digits with the point, no String
            long unscaled = exact.unscaledValue().longValueExact();
            plainFromLong(unscaled, t.scale(), out);
        } else {
            TsvText.ascii(exact.toPlainString(), out);
        }
    }

    private static void plainFromLong(long unscaled, int scale, ByteBuf out) {
        if (scale == 0) {
            decimalLong(unscaled, out);
            return;
        }
        if (unscaled < 0) {
            out.writeByte('-');
            unscaled = -unscaled; // |unscaled| < 10^18, no overflow
        }
        int digits = 1;
        for (long x = unscaled; x >= 10; x /= 10) {
            digits++;
        }
        int intDigits = Math.max(1, digits - scale);
        int total = intDigits + 1 + scale;
        int at = out.reserve(total);
        byte[] a = out.array();
        int p = at + total - 1;
        for (int i = 0; i < scale; i++) {
            a[p--] = (byte) ('0' + (int) (unscaled % 10));
            unscaled /= 10;
        }
        a[p--] = '.';
        for (int i = 0; i < intDigits; i++) {
            a[p--] = (byte) ('0' + (int) (unscaled % 10));
            unscaled /= 10;
        }
    }

    /**
     * Java's shortest round-trip text ({@code 4.9E-324}, {@code -0.0}, {@code Infinity}). NaN travels only as the
     * two NaNs ClickHouse parses back bit for bit; another payload is refused, never silently canonicalised.
     */
    static void float64(double d, ByteBuf out) {
        if (d != d) {
            long bits = Double.doubleToRawLongBits(d);
            if (bits == DOUBLE_NAN) {
                TsvText.ascii("NaN", out);
            } else if (bits == (DOUBLE_NAN | Long.MIN_VALUE)) {
                TsvText.ascii("-NaN", out);
            } else {
                throw new ValueOutOfRangeException("NaN payload cannot travel as TabSeparated text");
            }
            return;
        }
        TsvText.ascii(Double.toString(d), out);
    }

    static void float32(float f, ByteBuf out) {
        if (f != f) {
            int bits = Float.floatToRawIntBits(f);
            if (bits == FLOAT_NAN) {
                TsvText.ascii("NaN", out);
            } else if (bits == (FLOAT_NAN | Integer.MIN_VALUE)) {
                TsvText.ascii("-NaN", out);
            } else {
                throw new ValueOutOfRangeException("NaN payload cannot travel as TabSeparated text");
            }
            return;
        }
        TsvText.ascii(Float.toString(f), out);
    }
}
