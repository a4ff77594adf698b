package io.dpone.format;

import io.dpone.source.SourceColumn;
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
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.UUID;

/**
 * Encodes canonical rows in ClickHouse RowBinary for the mapped column types. The bytes are the exact typed
 * values (floats by bits, decimals as unscaled integers, text as UTF-8, timestamps as ticks), which is also what
 * the typed-hash gate hashes on both sides.
 */
public final class RowBinaryEncoder {
    private final ColumnType[] types;
    private final boolean[] nullable;

    public RowBinaryEncoder(List<SourceColumn> columns) {
        types = columns.stream().map(SourceColumn::type).toArray(ColumnType[]::new);
        nullable = new boolean[columns.size()];
        for (int i = 0; i < nullable.length; i++) {
            nullable[i] = columns.get(i).nullable();
        }
    }

    /** Appends one row to {@code out}. */
    public void encode(Object[] row, ByteBuf out) {
        encode(row, out, null);
    }

    /**
     * Appends one row; when {@code offsets} is given (length columns + 1) it receives where each column's bytes
     * start, and the end, so a column's own RowBinary bytes can be hashed on their own.
     */
    public void encode(Object[] row, ByteBuf out, int[] offsets) {
        for (int i = 0; i < types.length; i++) {
            if (offsets != null) {
                offsets[i] = out.length();
            }
            Object v = row[i];
            if (nullable[i]) {
                out.writeByte(v == null ? 1 : 0);
                if (v == null) {
                    continue;
                }
            } else if (v == null) {
                throw new IllegalStateException("NULL in a non-nullable column");
            }
            writeValue(types[i], v, out);
        }
        if (offsets != null) {
            offsets[types.length] = out.length();
        }
    }

    /** One non-NULL value of {@code type} (its canonical Java value) as RowBinary, without a Nullable flag. */
    public static void writeValue(ColumnType type, Object v, ByteBuf out) {
        if (type instanceof IntegerType t) {
            long x = (Long) v;
            switch (t.bits()) {
                case 8 -> out.writeByte((int) x);
                case 16 -> {
                    out.writeByte((int) x);
                    out.writeByte((int) (x >>> 8));
                }
                case 32 -> out.writeIntLE((int) x);
                default -> out.writeLongLE(x);
            }
        } else if (type instanceof StringType) {
            writeString((String) v, out);
        } else if (type instanceof FloatType t) {
            if (t.bits() == 32) {
                out.writeIntLE(Float.floatToRawIntBits((Float) v));
            } else {
                out.writeLongLE(Double.doubleToRawLongBits((Double) v));
            }
        } else if (type instanceof DecimalType t) {
            writeDecimal(t, (BigDecimal) v, out);
        } else if (type instanceof TimestampType t) {
            out.writeLongLE(t.ticks((LocalDateTime) v));
        } else if (type instanceof DateType) {
            out.writeIntLE((int) ((LocalDate) v).toEpochDay());
        } else if (type instanceof UuidType) {
            UUID u = (UUID) v;
            out.writeLongLE(u.getMostSignificantBits());
            out.writeLongLE(u.getLeastSignificantBits());
        } else if (type instanceof BoolType) {
            out.writeByte((Boolean) v ? 1 : 0);
        } else if (type instanceof BinaryType) {
            byte[] b = (byte[]) v;
            out.writeVarUInt(b.length);
            out.write(b, 0, b.length);
        } else if (type instanceof TimeType t) {
            out.writeLongLE(t.ticks((LocalTime) v)); // Time64(n): Int64 ticks of 10^-n s
        } else if (type instanceof RowVersionType) {
            out.writeLongLE((Long) v); // UInt64: the unsigned bits, little-endian
        }
    }

    /** A RowBinary {@code String}: the UTF-8 length as a varint, then the bytes (strict UTF-8, see {@link Utf8}). */
    public static void writeString(String s, ByteBuf out) {
        int lengthAt = out.length();
        if (s.length() < 43) { // 3 bytes per char fits one varint byte: write the prefix in place
            out.writeByte(0);
            int n = Utf8.encode(s, out);
            out.array()[lengthAt] = (byte) n;
        } else {
            ByteBuf tmp = SCRATCH.get();
            tmp.reset();
            int n = Utf8.encode(s, tmp);
            out.writeVarUInt(n);
            out.write(tmp.array(), 0, n);
        }
    }

    private static final ThreadLocal<ByteBuf> SCRATCH = ThreadLocal.withInitial(() -> new ByteBuf(1024));

    private static void writeDecimal(DecimalType t, BigDecimal v, ByteBuf out) {
        BigInteger unscaled = v.unscaledValue();
        int bytes = t.storageBytes();
        if (bytes == 4) {
            out.writeIntLE(unscaled.intValueExact());
        } else if (bytes == 8) {
            out.writeLongLE(unscaled.longValueExact());
        } else {
            byte[] be = unscaled.toByteArray();
            byte pad = (byte) (unscaled.signum() < 0 ? 0xFF : 0x00);
            for (int i = 0; i < bytes; i++) {
                int src = be.length - 1 - i;
                out.writeByte(src >= 0 ? be[src] : pad);
            }
        }
    }
}
