package io.dpone.format;

import io.dpone.source.types.BinaryType;
import io.dpone.source.types.BoolType;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.DateType;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.FloatType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.StringType;
import io.dpone.source.types.TimestampType;
import io.dpone.source.types.UuidType;
import io.dpone.source.types.ValueOutOfRangeException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.UUID;

/**
 * The TabSeparated text of one non-NULL canonical value, appended to a line: ClickHouse's escapes for text and
 * binary strings, exact decimal and timestamp text, and shortest round-trip float text (see
 * {@link TabSeparatedFormat} for why floats travel as text).
 */
final class TsvText {
    private static final byte[] ESCAPE = new byte[128];
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final long DOUBLE_NAN = 0x7ff8000000000000L;
    private static final int FLOAT_NAN = 0x7fc00000;

    static {
        ESCAPE['\\'] = '\\';
        ESCAPE['\t'] = 't';
        ESCAPE['\n'] = 'n';
        ESCAPE['\r'] = 'r';
        ESCAPE['\0'] = '0';
        ESCAPE['\b'] = 'b';
        ESCAPE['\f'] = 'f';
    }

    private TsvText() {
    }

    static void value(ColumnType type, Object v, ByteBuf out) {
        if (type instanceof StringType) {
            string((String) v, out);
        } else if (type instanceof IntegerType t) {
            integer(t, (Long) v, out);
        } else if (type instanceof DecimalType t) {
            decimal(t, (BigDecimal) v, out);
        } else if (type instanceof FloatType t) {
            if (t.bits() == 32) {
                float32((Float) v, out);
            } else {
                float64((Double) v, out);
            }
        } else if (type instanceof TimestampType t) {
            timestamp(t, (LocalDateTime) v, out);
        } else if (type instanceof DateType) {
            date((LocalDate) v, out);
        } else if (type instanceof UuidType) {
            uuid((UUID) v, out);
        } else if (type instanceof BoolType) {
            ascii((Boolean) v ? "true" : "false", out);
        } else if (type instanceof BinaryType) {
            byte[] bytes = (byte[]) v;
            escaped(bytes, 0, bytes.length, out);
        } else {
            throw new IllegalArgumentException("unsupported column type " + type);
        }
    }

    /** Strict UTF-8 (unpaired surrogates refused), then escaped in place: escapes are all ASCII bytes. */
    static void string(String s, ByteBuf out) {
        int start = out.length();
        int n = Utf8.encode(s, out);
        byte[] a = out.array();
        int extra = 0;
        for (int i = start; i < start + n; i++) {
            byte c = a[i];
            if (c >= 0 && ESCAPE[c] != 0) {
                extra++;
            }
        }
        if (extra == 0) {
            return;
        }
        out.reserve(extra);
        a = out.array();
        int dst = start + n + extra;
        for (int src = start + n - 1; src >= start; src--) {
            byte c = a[src];
            byte e = c >= 0 ? ESCAPE[c] : 0;
            if (e != 0) {
                a[--dst] = e;
                a[--dst] = '\\';
            } else {
                a[--dst] = c;
            }
        }
    }

    static void escaped(byte[] src, int offset, int count, ByteBuf out) {
        int at = out.reserve(2 * count);
        byte[] a = out.array();
        int p = at;
        for (int i = offset; i < offset + count; i++) {
            byte c = src[i];
            byte e = c >= 0 ? ESCAPE[c] : 0;
            if (e != 0) {
                a[p++] = '\\';
                a[p++] = e;
            } else {
                a[p++] = c;
            }
        }
        out.truncate(p);
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
            ascii("-9223372036854775808", out);
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
            ascii(exact.toPlainString(), out);
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
                ascii("NaN", out);
            } else if (bits == (DOUBLE_NAN | Long.MIN_VALUE)) {
                ascii("-NaN", out);
            } else {
                throw new ValueOutOfRangeException("NaN payload cannot travel as TabSeparated text");
            }
            return;
        }
        ascii(Double.toString(d), out);
    }

    static void float32(float f, ByteBuf out) {
        if (f != f) {
            int bits = Float.floatToRawIntBits(f);
            if (bits == FLOAT_NAN) {
                ascii("NaN", out);
            } else if (bits == (FLOAT_NAN | Integer.MIN_VALUE)) {
                ascii("-NaN", out);
            } else {
                throw new ValueOutOfRangeException("NaN payload cannot travel as TabSeparated text");
            }
            return;
        }
        ascii(Float.toString(f), out);
    }

    static void date(LocalDate d, ByteBuf out) {
        if (d.isBefore(DateType.MIN) || d.isAfter(DateType.MAX)) {
            throw new ValueOutOfRangeException("date outside the Date32 range 1900-01-01..2299-12-31");
        }
        ymd(d.getYear(), d.getMonthValue(), d.getDayOfMonth(), out);
    }

    /** {@code YYYY-MM-DD hh:mm:ss[.f...]} with exactly the column's fractional digits. */
    static void timestamp(TimestampType t, LocalDateTime v, ByteBuf out) {
        int year = v.getYear();
        if (year < 1900 || year > 2299) {
            throw new ValueOutOfRangeException("timestamp outside the DateTime64 range 1900..2299");
        }
        int precision = t.precision();
        int nano = v.getNano();
        int divisor = 1;
        for (int i = precision; i < 9; i++) {
            divisor *= 10;
        }
        if (nano % divisor != 0) {
            throw new ValueOutOfRangeException("timestamp has more fractional digits than precision " + precision);
        }
        ymd(year, v.getMonthValue(), v.getDayOfMonth(), out);
        out.writeByte(' ');
        two(v.getHour(), out);
        out.writeByte(':');
        two(v.getMinute(), out);
        out.writeByte(':');
        two(v.getSecond(), out);
        if (precision > 0) {
            out.writeByte('.');
            int fraction = nano / divisor;
            int at = out.reserve(precision);
            byte[] a = out.array();
            for (int p = at + precision - 1; p >= at; p--) {
                a[p] = (byte) ('0' + fraction % 10);
                fraction /= 10;
            }
        }
    }

    private static void ymd(int year, int month, int day, ByteBuf out) {
        out.writeByte('0' + year / 1000);
        out.writeByte('0' + year / 100 % 10);
        two(year % 100, out);
        out.writeByte('-');
        two(month, out);
        out.writeByte('-');
        two(day, out);
    }

    private static void two(int v, ByteBuf out) {
        out.writeByte('0' + v / 10);
        out.writeByte('0' + v % 10);
    }

    static void uuid(UUID u, ByteBuf out) {
        int at = out.reserve(36);
        byte[] a = out.array();
        long hi = u.getMostSignificantBits();
        long lo = u.getLeastSignificantBits();
        hex(hi >>> 32, 8, a, at);
        a[at + 8] = '-';
        hex(hi >>> 16, 4, a, at + 9);
        a[at + 13] = '-';
        hex(hi, 4, a, at + 14);
        a[at + 18] = '-';
        hex(lo >>> 48, 4, a, at + 19);
        a[at + 23] = '-';
        hex(lo, 12, a, at + 24);
    }

    private static void hex(long v, int digits, byte[] a, int at) {
        for (int p = at + digits - 1; p >= at; p--) {
            a[p] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
    }

    private static void ascii(String s, ByteBuf out) {
        int n = s.length();
        int at = out.reserve(n);
        byte[] a = out.array();
        for (int i = 0; i < n; i++) {
            a[at + i] = (byte) s.charAt(i);
        }
    }
}
