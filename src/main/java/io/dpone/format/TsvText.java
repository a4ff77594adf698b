package io.dpone.format;

import io.dpone.source.types.BinaryType;
import io.dpone.source.types.BoolType;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.DateType;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.FloatType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.RowVersionType;
import io.dpone.source.types.StringType;
import io.dpone.source.types.TimeType;
import io.dpone.source.types.TimestampType;
import io.dpone.source.types.UuidType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;

/**
 * The TabSeparated text of one non-NULL canonical value, appended to a line: ClickHouse's escapes for text and
 * binary strings ({@link TsvEscaping}), exact decimal text and shortest round-trip float text
 * ({@link TsvNumberText}; see {@link TabSeparatedFormat} for why floats travel as text), exact date and timestamp
 * text ({@link TsvDateText}); booleans and UUIDs are written here.
 */
final class TsvText {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private TsvText() {
    }

    /** Appends the text of {@code v}, a non-NULL canonical value of a {@code type} column. */
    static void value(ColumnType type, Object v, ByteBuf out) {
        if (type instanceof StringType) {
            TsvEscaping.string((String) v, out);
        } else if (type instanceof IntegerType t) {
            TsvNumberText.integer(t, (Long) v, out);
        } else if (type instanceof DecimalType t) {
            TsvNumberText.decimal(t, (BigDecimal) v, out);
        } else if (type instanceof FloatType t) {
            if (t.bits() == 32) {
                TsvNumberText.float32((Float) v, out);
            } else {
                TsvNumberText.float64((Double) v, out);
            }
        } else if (type instanceof TimestampType t) {
            TsvDateText.timestamp(t, (LocalDateTime) v, out);
        } else if (type instanceof DateType) {
            TsvDateText.date((LocalDate) v, out);
        } else if (type instanceof UuidType) {
            uuid((UUID) v, out);
        } else if (type instanceof BoolType) {
            ascii((Boolean) v ? "true" : "false", out);
        } else if (type instanceof BinaryType) {
            byte[] bytes = (byte[]) v;
            TsvEscaping.escaped(bytes, 0, bytes.length, out);
        } else if (type instanceof TimeType t) {
            TsvDateText.time(t, (LocalTime) v, out);
        } else if (type instanceof RowVersionType) {
            ascii(Long.toUnsignedString((Long) v), out);
        } else {
            throw new IllegalArgumentException("unsupported column type " + type);
        }
    }

    /** The 36-character lower-case hex form, {@code 8-4-4-4-12}. */
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

    /** The ASCII text {@code s}, one byte per char. */
    static void ascii(String s, ByteBuf out) {
        int n = s.length();
        int at = out.reserve(n);
        byte[] a = out.array();
        for (int i = 0; i < n; i++) {
            a[at + i] = (byte) s.charAt(i);
        }
    }
}
