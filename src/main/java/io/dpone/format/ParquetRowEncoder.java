package io.dpone.format;

import io.dpone.format.parquet.ParquetColumn;
import io.dpone.format.parquet.ParquetColumn.Encoding;
import io.dpone.source.types.TimestampType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.UUID;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Encodes one row of canonical values straight into parquet's column writers, each value by its column's
 * {@link Encoding}: decimals at their declared scale (rescaled only if exact), timestamps as ticks (times the
 * column's multiplier) or fixed-length big-endian, UUIDs as 16 big-endian bytes. Reuses its buffers across rows;
 * not thread-safe.
 */
final class ParquetRowEncoder {
    private final Encoding[] encodings;
    private final boolean[] nullable;
    private final long[] multipliers;
    private final int[] scales;
    private final TimestampType[] timestamps;
    private final io.dpone.source.types.TimeType[] times;
    private final byte[][] fixed;
    private final ByteBuf text = new ByteBuf(1024);

    ParquetRowEncoder(ParquetColumn[] columns) {
        int n = columns.length;
        encodings = new Encoding[n];
        nullable = new boolean[n];
        multipliers = new long[n];
        scales = new int[n];
        timestamps = new TimestampType[n];
        times = new io.dpone.source.types.TimeType[n];
        fixed = new byte[n][];
        for (int i = 0; i < n; i++) {
            ParquetColumn c = columns[i];
            encodings[i] = c.encoding();
            nullable[i] = c.source().nullable();
            multipliers[i] = c.multiplier();
            scales[i] = c.scale();
            timestamps[i] = c.source().type() instanceof TimestampType t ? t : null;
            times[i] = c.source().type() instanceof io.dpone.source.types.TimeType t ? t : null;
            fixed[i] = new byte[c.encoding() == Encoding.UUID ? 16 : c.fixedLength()];
        }
    }

    /** Writes {@code row}'s values, one per column writer in {@code w}; a NULL in a non-nullable column throws. */
    void write(Object[] row, ColumnWriter[] w) {
        for (int i = 0; i < encodings.length; i++) {
            Object v = row[i];
            if (v == null) {
                if (!nullable[i]) {
                    throw new IllegalStateException("NULL in a non-nullable column");
                }
                w[i].writeNull(0, 0);
            } else {
                writeValue(i, w[i], v, nullable[i] ? 1 : 0);
            }
        }
    }

    private void writeValue(int i, ColumnWriter w, Object v, int dl) {
        switch (encodings[i]) {
            case INT32 -> w.write((int) (long) (Long) v, 0, dl);
            case INT64 -> w.write((long) (Long) v, 0, dl);
            case BOOLEAN -> w.write((boolean) (Boolean) v, 0, dl);
            case FLOAT -> w.write((float) (Float) v, 0, dl);
            case DOUBLE -> w.write((double) (Double) v, 0, dl);
            case TEXT -> {
                text.reset();
                int n = Utf8.encode((String) v, text);
                w.write(Binary.fromReusedByteArray(text.array(), 0, n), 0, dl);
            }
            case BYTES -> w.write(Binary.fromReusedByteArray((byte[]) v), 0, dl);
            case DATE -> w.write(Math.toIntExact(((LocalDate) v).toEpochDay()), 0, dl);
            case DECIMAL_INT32 -> w.write(Math.toIntExact(unscaledLong(i, v)), 0, dl);
            case DECIMAL_INT64 -> w.write(unscaledLong(i, v), 0, dl);
            case DECIMAL_FIXED -> w.write(fixed(i, unscaled(i, v)), 0, dl);
            case TIMESTAMP_INT64 ->
                w.write(Math.multiplyExact(timestamps[i].ticks((LocalDateTime) v), multipliers[i]), 0, dl);
            case TIMESTAMP_FIXED -> w.write(fixed(i, timestamps[i].ticks((LocalDateTime) v)), 0, dl);
            case TIME_INT64 -> w.write(times[i].ticks((java.time.LocalTime) v), 0, dl);
            case UUID -> {
                UUID u = (UUID) v;
                byte[] b = fixed[i];
                putLongBE(b, 0, u.getMostSignificantBits());
                putLongBE(b, 8, u.getLeastSignificantBits());
                w.write(Binary.fromReusedByteArray(b), 0, dl);
            }
            default -> throw new IllegalStateException("unhandled encoding " + encodings[i]);
        }
    }

    /** {@code v} at the declared scale; a value at another scale is rescaled only if exact. */
    private BigDecimal atScale(int i, Object v) {
        BigDecimal d = (BigDecimal) v;
        return d.scale() == scales[i] ? d : d.setScale(scales[i], RoundingMode.UNNECESSARY);
    }

    /** The unscaled value at the declared scale as a BigInteger (a new one for a value that fits a long). */
    private BigInteger unscaled(int i, Object v) {
        return atScale(i, v).unscaledValue();
    }

    /**
     * The unscaled value at the declared scale as a long, without the BigInteger {@link BigDecimal#unscaledValue()}
     * builds for every value that fits a long: moving the point to scale 0 keeps such a value compact, and
     * {@link BigDecimal#longValueExact()} of a compact scale-0 value is the long itself. Out of range throws
     * {@link ArithmeticException}, as {@code unscaledValue().longValueExact()} does.
     */
    private long unscaledLong(int i, Object v) {
        BigDecimal d = atScale(i, v);
        return (d.scale() == 0 ? d : d.movePointRight(d.scale())).longValueExact();
    }

    /** Big-endian two's complement of {@code v} in the column's fixed length. */
    private Binary fixed(int i, BigInteger v) {
        if (v.bitLength() < 64) {
            return fixed(i, v.longValue());
        }
        byte[] b = fixed[i];
        byte[] be = v.toByteArray();
        if (be.length > b.length) {
            throw new ArithmeticException("decimal value exceeds its declared precision");
        }
        int pad = b.length - be.length;
        byte sign = (byte) (v.signum() < 0 ? 0xFF : 0x00);
        for (int k = 0; k < pad; k++) {
            b[k] = sign;
        }
        System.arraycopy(be, 0, b, pad, be.length);
        return Binary.fromReusedByteArray(b);
    }

    private Binary fixed(int i, long v) {
        byte[] b = fixed[i];
        int len = b.length;
        if (len < 8) {
            throw new ArithmeticException("value does not fit the column's fixed length");
        }
        byte sign = (byte) (v < 0 ? 0xFF : 0x00);
        for (int k = 0; k < len - 8; k++) {
            b[k] = sign;
        }
        putLongBE(b, len - 8, v);
        return Binary.fromReusedByteArray(b);
    }

    private static void putLongBE(byte[] b, int at, long v) {
        for (int k = 7; k >= 0; k--) {
            b[at + k] = (byte) v;
            v >>>= 8;
        }
    }
}
