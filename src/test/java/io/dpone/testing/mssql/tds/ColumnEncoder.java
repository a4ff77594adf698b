package io.dpone.testing.mssql.tds;

import io.dpone.testing.mssql.engine.SqlType;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * Encodes a result column as SQL Server does, from its declared type: the TYPE_INFO of COLMETADATA and RETURNVALUE
 * (fixed-length types for NOT NULL integer, bit, float, money and datetime columns, the nullable "N" types
 * otherwise, as SQL Server chooses them) and each value (MS-TDS 2.2.5.5). Text of {@code char}/{@code varchar} is
 * sent in its collation's code page; {@code (max)} values as PLP chunks; {@code uniqueidentifier} in SQL Server's
 * mixed-endian byte order.
 */
final class ColumnEncoder {
    private static final LocalDate DAY_ONE = LocalDate.of(1, 1, 1);
    private static final LocalDate DATETIME_EPOCH = LocalDate.of(1900, 1, 1);
    /** PLP chunk size; SQL Server's chunks follow its packets, any size is valid. */
    private static final int CHUNK = 8000;

    private ColumnEncoder() {
    }

    /** Whether SQL Server sends this column with a fixed-length type (no length byte before each value). */
    static boolean fixed(SqlType t, boolean nullable) {
        if (nullable) {
            return false;
        }
        return switch (t.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT, BIT, REAL, FLOAT, MONEY, SMALLMONEY, DATETIME, SMALLDATETIME -> true;
            default -> false;
        };
    }

    static void typeInfo(TdsWriter w, SqlType t, boolean nullable, String tableName) throws IOException {
        boolean fixed = fixed(t, nullable);
        switch (t.kind()) {
            case TINYINT -> intType(w, fixed, TdsTypes.INT1, 1);
            case SMALLINT -> intType(w, fixed, TdsTypes.INT2, 2);
            case INT -> intType(w, fixed, TdsTypes.INT4, 4);
            case BIGINT -> intType(w, fixed, TdsTypes.INT8, 8);
            case BIT -> {
                w.u8(fixed ? TdsTypes.BIT : TdsTypes.BITN);
                if (!fixed) {
                    w.u8(1);
                }
            }
            case REAL -> fixedOr(w, fixed, TdsTypes.FLT4, TdsTypes.FLTN, 4);
            case FLOAT -> fixedOr(w, fixed, TdsTypes.FLT8, TdsTypes.FLTN, 8);
            case MONEY -> fixedOr(w, fixed, TdsTypes.MONEY, TdsTypes.MONEYN, 8);
            case SMALLMONEY -> fixedOr(w, fixed, TdsTypes.MONEY4, TdsTypes.MONEYN, 4);
            case DATETIME -> fixedOr(w, fixed, TdsTypes.DATETIME, TdsTypes.DATETIMN, 8);
            case SMALLDATETIME -> fixedOr(w, fixed, TdsTypes.DATETIM4, TdsTypes.DATETIMN, 4);
            case DECIMAL, NUMERIC -> {
                w.u8(t.kind() == SqlType.Kind.DECIMAL ? TdsTypes.DECIMALN : TdsTypes.NUMERICN);
                w.u8(TdsTypes.decimalLength(t.precision()));
                w.u8(t.precision());
                w.u8(t.scale());
            }
            case DATE -> w.u8(TdsTypes.DATEN);
            case TIME -> scaled(w, TdsTypes.TIMEN, t.scale());
            case DATETIME2 -> scaled(w, TdsTypes.DATETIME2N, t.scale());
            case DATETIMEOFFSET -> scaled(w, TdsTypes.DATETIMEOFFSETN, t.scale());
            case UNIQUEIDENTIFIER -> {
                w.u8(TdsTypes.GUID);
                w.u8(16);
            }
            case CHAR, VARCHAR -> {
                w.u8(t.kind() == SqlType.Kind.CHAR ? TdsTypes.BIGCHAR : TdsTypes.BIGVARCHR);
                w.u16(t.isMax() ? TdsTypes.MAX_LEN : t.length());
                w.bytes(Collations.of(t.collation()).tds());
            }
            case NCHAR, NVARCHAR -> {
                w.u8(t.kind() == SqlType.Kind.NCHAR ? TdsTypes.NCHAR : TdsTypes.NVARCHAR);
                w.u16(t.isMax() ? TdsTypes.MAX_LEN : t.length() * 2);
                w.bytes(Collations.of(t.collation()).tds());
            }
            case BINARY, VARBINARY, ROWVERSION -> {
                // rowversion: BIGBINARY(8), told apart by COLMETADATA's UserType (ResponseStream)
                w.u8(t.kind() == SqlType.Kind.VARBINARY ? TdsTypes.BIGVARBIN : TdsTypes.BIGBINARY);
                w.u16(t.isMax() ? TdsTypes.MAX_LEN : t.length());
            }
            case TEXT, NTEXT, IMAGE -> {
                w.u8(t.kind() == SqlType.Kind.TEXT ? TdsTypes.TEXT : t.kind() == SqlType.Kind.NTEXT ? TdsTypes.NTEXT
                    : TdsTypes.IMAGE);
                w.i32(t.kind() == SqlType.Kind.NTEXT ? 0x3FFFFFFF : 0x7FFFFFFF);
                if (t.kind() != SqlType.Kind.IMAGE) {
                    w.bytes(Collations.of(t.collation()).tds());
                }
                w.u8(1); // the table name, one part
                w.usVarchar(tableName == null ? "" : tableName);
            }
            case SQL_VARIANT -> {
                w.u8(TdsTypes.SSVARIANT);
                w.i32(8016);
            }
            case XML -> {
                w.u8(TdsTypes.XML);
                w.u8(0); // no schema collection
            }
            case HIERARCHYID, GEOGRAPHY, GEOMETRY -> throw new IllegalStateException("the twin does not send "
                + t.kind().sqlName() + " values raw (the engine refuses such a select)");
        }
    }

    private static void intType(TdsWriter w, boolean fixed, int fixedType, int length) throws IOException {
        fixedOr(w, fixed, fixedType, TdsTypes.INTN, length);
    }

    private static void fixedOr(TdsWriter w, boolean fixed, int fixedType, int nType, int length) throws IOException {
        if (fixed) {
            w.u8(fixedType);
        } else {
            w.u8(nType);
            w.u8(length);
        }
    }

    private static void scaled(TdsWriter w, int type, int scale) throws IOException {
        w.u8(type);
        w.u8(scale);
    }

    /** Whether a NULL of this type can be sent as a bit of an NBCROW (every type can; kept for symmetry). */
    static void value(TdsWriter w, SqlType t, boolean nullable, Object v) throws IOException {
        boolean fixed = fixed(t, nullable);
        if (v == null) {
            if (fixed) {
                throw new IllegalStateException("NULL in a NOT NULL column");
            }
            writeNull(w, t);
            return;
        }
        switch (t.kind()) {
            case TINYINT -> {
                lengthUnlessFixed(w, fixed, 1);
                w.u8(((Number) v).intValue());
            }
            case SMALLINT -> {
                lengthUnlessFixed(w, fixed, 2);
                w.u16(((Number) v).intValue());
            }
            case INT -> {
                lengthUnlessFixed(w, fixed, 4);
                w.i32(((Number) v).intValue());
            }
            case BIGINT -> {
                lengthUnlessFixed(w, fixed, 8);
                w.i64(((Number) v).longValue());
            }
            case BIT -> {
                lengthUnlessFixed(w, fixed, 1);
                w.u8(v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).intValue() != 0 ? 1 : 0);
            }
            case REAL -> {
                lengthUnlessFixed(w, fixed, 4);
                w.i32(Float.floatToRawIntBits(((Number) v).floatValue()));
            }
            case FLOAT -> {
                lengthUnlessFixed(w, fixed, 8);
                w.i64(Double.doubleToRawLongBits(((Number) v).doubleValue()));
            }
            case MONEY -> {
                lengthUnlessFixed(w, fixed, 8);
                long units = ((BigDecimal) v).setScale(4).unscaledValue().longValueExact();
                w.i32((int) (units >>> 32));
                w.i32((int) units);
            }
            case SMALLMONEY -> {
                lengthUnlessFixed(w, fixed, 4);
                w.i32(((BigDecimal) v).setScale(4).unscaledValue().intValueExact());
            }
            case DECIMAL, NUMERIC -> decimal(w, t, (BigDecimal) v);
            case DATETIME -> {
                lengthUnlessFixed(w, fixed, 8);
                LocalDateTime d = (LocalDateTime) v;
                w.i32((int) ChronoUnit.DAYS.between(DATETIME_EPOCH, d.toLocalDate()));
                // 1/300 s ticks, rounded as SQL Server rounds a value it stores
                w.i32((int) Math.round(d.toLocalTime().toNanoOfDay() * 300.0 / 1_000_000_000L));
            }
            case SMALLDATETIME -> {
                lengthUnlessFixed(w, fixed, 4);
                LocalDateTime d = (LocalDateTime) v;
                w.u16((int) ChronoUnit.DAYS.between(DATETIME_EPOCH, d.toLocalDate()));
                w.u16(d.getHour() * 60 + d.getMinute());
            }
            case DATE -> {
                w.u8(3);
                date(w, (LocalDate) v);
            }
            case TIME -> {
                w.u8(TdsTypes.timeLength(t.scale()));
                time(w, (LocalTime) v, t.scale());
            }
            case DATETIME2 -> {
                LocalDateTime d = (LocalDateTime) v;
                w.u8(TdsTypes.timeLength(t.scale()) + 3);
                time(w, d.toLocalTime(), t.scale());
                date(w, d.toLocalDate());
            }
            case DATETIMEOFFSET -> {
                OffsetDateTime d = (OffsetDateTime) v;
                LocalDateTime utc = d.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
                w.u8(TdsTypes.timeLength(t.scale()) + 5);
                time(w, utc.toLocalTime(), t.scale());
                date(w, utc.toLocalDate());
                w.u16(d.getOffset().getTotalSeconds() / 60);
            }
            case UNIQUEIDENTIFIER -> {
                w.u8(16);
                w.bytes(guid((UUID) v));
            }
            case CHAR, VARCHAR -> {
                byte[] b = ((String) v).getBytes(Collations.of(t.collation()).charset());
                sized(w, t, t.kind() == SqlType.Kind.CHAR ? pad(b, t.length(), (byte) ' ') : b);
            }
            case NCHAR, NVARCHAR -> {
                String s = (String) v;
                if (t.kind() == SqlType.Kind.NCHAR && s.length() < t.length()) {
                    s = s + " ".repeat(t.length() - s.length());
                }
                sized(w, t, s.getBytes(StandardCharsets.UTF_16LE));
            }
            case BINARY, VARBINARY, ROWVERSION -> {
                byte[] b = (byte[]) v;
                sized(w, t, t.kind() != SqlType.Kind.VARBINARY ? pad(b, t.length(), (byte) 0) : b);
            }
            case TEXT, NTEXT, IMAGE -> {
                byte[] b = t.kind() == SqlType.Kind.IMAGE ? (byte[]) v : t.kind() == SqlType.Kind.NTEXT
                    ? ((String) v).getBytes(StandardCharsets.UTF_16LE)
                    : ((String) v).getBytes(Collations.of(t.collation()).charset());
                w.u8(16);
                w.bytes(new byte[16]); // text pointer
                w.bytes(new byte[8]); // timestamp
                w.i32(b.length);
                w.bytes(b);
            }
            case XML -> plp(w, ((String) v).getBytes(StandardCharsets.UTF_16LE));
            case SQL_VARIANT -> variant(w, v);
            case HIERARCHYID, GEOGRAPHY, GEOMETRY -> throw new IllegalStateException("the twin does not send "
                + t.kind().sqlName() + " values raw");
        }
    }

    private static void writeNull(TdsWriter w, SqlType t) throws IOException {
        switch (t.kind()) {
            case CHAR, VARCHAR, NCHAR, NVARCHAR, BINARY, VARBINARY, ROWVERSION -> {
                if (t.isMax()) {
                    w.i64(TdsTypes.PLP_NULL);
                } else {
                    w.u16(0xFFFF);
                }
            }
            case XML -> w.i64(TdsTypes.PLP_NULL);
            case SQL_VARIANT -> w.i32(0);
            default -> w.u8(0); // a zero length byte, or a zero-length text pointer
        }
    }

    private static void lengthUnlessFixed(TdsWriter w, boolean fixed, int length) throws IOException {
        if (!fixed) {
            w.u8(length);
        }
    }

    private static void sized(TdsWriter w, SqlType t, byte[] b) throws IOException {
        if (t.isMax()) {
            plp(w, b);
        } else {
            if (b.length > t.length() * (t.kind().isUnicode() ? 2 : 1)) {
                throw new IllegalStateException("value longer than its declared type " + t.declaration());
            }
            w.u16(b.length);
            w.bytes(b);
        }
    }

    /** A PLP value of known length: the total, then chunks, then a zero-length terminator. */
    static void plp(TdsWriter w, byte[] b) throws IOException {
        w.i64(b.length);
        for (int off = 0; off < b.length; off += CHUNK) {
            int n = Math.min(CHUNK, b.length - off);
            w.i32(n);
            w.bytes(b, off, n);
        }
        w.i32(0);
    }

    private static byte[] pad(byte[] b, int length, byte fill) {
        if (b.length >= length) {
            return b;
        }
        byte[] r = java.util.Arrays.copyOf(b, length);
        java.util.Arrays.fill(r, b.length, length, fill);
        return r;
    }

    private static void decimal(TdsWriter w, SqlType t, BigDecimal v) throws IOException {
        int length = TdsTypes.decimalLength(t.precision());
        BigInteger unscaled = v.setScale(t.scale()).unscaledValue(); // exact: the engine keeps the declared scale
        byte[] magnitude = unscaled.abs().toByteArray(); // big-endian, maybe a leading zero
        w.u8(length);
        w.u8(unscaled.signum() < 0 ? 0 : 1);
        for (int i = 0; i < length - 1; i++) {
            int idx = magnitude.length - 1 - i;
            w.u8(idx >= 0 ? magnitude[idx] : 0);
        }
    }

    private static void date(TdsWriter w, LocalDate d) throws IOException {
        int days = (int) ChronoUnit.DAYS.between(DAY_ONE, d);
        w.u8(days);
        w.u8(days >>> 8);
        w.u8(days >>> 16);
    }

    private static void time(TdsWriter w, LocalTime t, int scale) throws IOException {
        long units = t.toNanoOfDay() / TdsTypes.nanosPerUnit(scale);
        for (int i = 0; i < TdsTypes.timeLength(scale); i++) {
            w.u8((int) (units >>> (8 * i)));
        }
    }

    /** SQL Server's byte order: the first three groups little-endian, the last two as written. */
    static byte[] guid(UUID u) {
        byte[] b = new byte[16];
        long msb = u.getMostSignificantBits();
        long lsb = u.getLeastSignificantBits();
        byte[] be = new byte[8];
        for (int i = 0; i < 8; i++) {
            be[i] = (byte) (msb >>> (56 - 8 * i));
        }
        b[0] = be[3];
        b[1] = be[2];
        b[2] = be[1];
        b[3] = be[0];
        b[4] = be[5];
        b[5] = be[4];
        b[6] = be[7];
        b[7] = be[6];
        for (int i = 0; i < 8; i++) {
            b[8 + i] = (byte) (lsb >>> (56 - 8 * i));
        }
        return b;
    }

    /** A sql_variant value: an integer as {@code bigint}, anything else as its {@code nvarchar} text. */
    private static void variant(TdsWriter w, Object v) throws IOException {
        if (v instanceof Number n && !(v instanceof BigDecimal)) {
            w.i32(2 + 8);
            w.u8(TdsTypes.INT8);
            w.u8(0);
            w.i64(n.longValue());
            return;
        }
        byte[] b = v.toString().getBytes(StandardCharsets.UTF_16LE);
        w.i32(2 + 7 + b.length);
        w.u8(TdsTypes.NVARCHAR);
        w.u8(7);
        w.bytes(Collations.of(SqlType.DEFAULT_COLLATION).tds());
        w.u16(8000);
        w.bytes(b);
    }
}
