package io.dpone.testing.mssql.tds;

import io.dpone.testing.mssql.engine.SqlType;
import io.dpone.testing.mssql.engine.SqlType.Kind;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Decodes an RPC parameter's TYPE_INFO and value (MS-TDS 2.2.6.6) into the declared type and the Java form the
 * engine takes ({@link io.dpone.testing.mssql.engine.Results}). Covers every type mssql-jdbc sends for its setters.
 */
final class ParamDecoder {
    private static final LocalDate DAY_ONE = LocalDate.of(1, 1, 1);
    private static final LocalDate DATETIME_EPOCH = LocalDate.of(1900, 1, 1);

    private ParamDecoder() {
    }

    /** A decoded TYPE_INFO: the declared type, the wire type byte, its max length, and the collation charset. */
    record WireType(SqlType type, int tdsType, int maxLength, java.nio.charset.Charset charset) {
    }

    static WireType typeInfo(PayloadReader r) {
        int t = r.u8();
        return switch (t) {
            case TdsTypes.INT1 -> wire(Kind.TINYINT, t, 1);
            case TdsTypes.INT2 -> wire(Kind.SMALLINT, t, 2);
            case TdsTypes.INT4 -> wire(Kind.INT, t, 4);
            case TdsTypes.INT8 -> wire(Kind.BIGINT, t, 8);
            case TdsTypes.BIT -> wire(Kind.BIT, t, 1);
            case TdsTypes.FLT4 -> wire(Kind.REAL, t, 4);
            case TdsTypes.FLT8 -> wire(Kind.FLOAT, t, 8);
            case TdsTypes.MONEY -> wire(Kind.MONEY, t, 8);
            case TdsTypes.MONEY4 -> wire(Kind.SMALLMONEY, t, 4);
            case TdsTypes.DATETIME -> wire(Kind.DATETIME, t, 8);
            case TdsTypes.DATETIM4 -> wire(Kind.SMALLDATETIME, t, 4);
            case TdsTypes.NULLTYPE -> wire(Kind.INT, t, 0);
            case TdsTypes.INTN -> {
                int len = r.u8();
                yield wire(len == 1 ? Kind.TINYINT : len == 2 ? Kind.SMALLINT : len == 4 ? Kind.INT : Kind.BIGINT, t, len);
            }
            case TdsTypes.BITN -> wire(Kind.BIT, t, r.u8());
            case TdsTypes.FLTN -> {
                int len = r.u8();
                yield wire(len == 4 ? Kind.REAL : Kind.FLOAT, t, len);
            }
            case TdsTypes.MONEYN -> {
                int len = r.u8();
                yield wire(len == 4 ? Kind.SMALLMONEY : Kind.MONEY, t, len);
            }
            case TdsTypes.DATETIMN -> {
                int len = r.u8();
                yield wire(len == 4 ? Kind.SMALLDATETIME : Kind.DATETIME, t, len);
            }
            case TdsTypes.DECIMALN, TdsTypes.NUMERICN -> {
                int len = r.u8();
                int precision = r.u8();
                int scale = r.u8();
                yield new WireType(new SqlType(t == TdsTypes.DECIMALN ? Kind.DECIMAL : Kind.NUMERIC, 0, precision,
                    scale, null), t, len, null);
            }
            case TdsTypes.DATEN -> wire(Kind.DATE, t, 3);
            case TdsTypes.TIMEN, TdsTypes.DATETIME2N, TdsTypes.DATETIMEOFFSETN -> {
                int scale = r.u8();
                Kind k = t == TdsTypes.TIMEN ? Kind.TIME : t == TdsTypes.DATETIME2N ? Kind.DATETIME2 : Kind.DATETIMEOFFSET;
                yield new WireType(new SqlType(k, 0, 0, scale, null), t, 0, null);
            }
            case TdsTypes.GUID -> wire(Kind.UNIQUEIDENTIFIER, t, r.u8());
            case TdsTypes.BIGVARCHR, TdsTypes.BIGCHAR, TdsTypes.NVARCHAR, TdsTypes.NCHAR -> {
                int max = r.u16();
                byte[] collation = r.bytes(5);
                boolean unicode = t == TdsTypes.NVARCHAR || t == TdsTypes.NCHAR;
                Kind k = t == TdsTypes.BIGVARCHR ? Kind.VARCHAR : t == TdsTypes.BIGCHAR ? Kind.CHAR
                    : t == TdsTypes.NVARCHAR ? Kind.NVARCHAR : Kind.NCHAR;
                int length = max == TdsTypes.MAX_LEN ? SqlType.MAX : unicode ? max / 2 : max;
                yield new WireType(new SqlType(k, length, 0, 0, SqlType.DEFAULT_COLLATION), t, max,
                    unicode ? StandardCharsets.UTF_16LE : charsetOf(collation));
            }
            case TdsTypes.BIGVARBIN, TdsTypes.BIGBINARY -> {
                int max = r.u16();
                yield new WireType(new SqlType(t == TdsTypes.BIGVARBIN ? Kind.VARBINARY : Kind.BINARY,
                    max == TdsTypes.MAX_LEN ? SqlType.MAX : max, 0, 0, null), t, max, null);
            }
            case TdsTypes.XML -> {
                if (r.u8() != 0) {
                    r.bVarchar();
                    r.bVarchar();
                    r.usVarchar();
                }
                yield new WireType(SqlType.of(Kind.XML), t, TdsTypes.MAX_LEN, StandardCharsets.UTF_16LE);
            }
            case TdsTypes.TEXT, TdsTypes.NTEXT -> {
                r.i32();
                byte[] collation = r.bytes(5);
                yield new WireType(new SqlType(t == TdsTypes.TEXT ? Kind.TEXT : Kind.NTEXT, SqlType.MAX, 0, 0,
                    SqlType.DEFAULT_COLLATION), t, 0,
                    t == TdsTypes.NTEXT ? StandardCharsets.UTF_16LE : charsetOf(collation));
            }
            case TdsTypes.IMAGE -> {
                r.i32();
                yield new WireType(new SqlType(Kind.IMAGE, SqlType.MAX, 0, 0, null), t, 0, null);
            }
            default -> throw new TdsProtocolException("parameter type 0x" + Integer.toHexString(t)
                + " is not one the twin decodes");
        };
    }

    private static WireType wire(Kind k, int tdsType, int length) {
        return new WireType(SqlType.of(k), tdsType, length, null);
    }

    private static java.nio.charset.Charset charsetOf(byte[] collation) {
        int lcid = (collation[0] & 0xFF) | ((collation[1] & 0xFF) << 8) | ((collation[2] & 0x0F) << 16);
        if ((collation[3] & 0x04) != 0) {
            return StandardCharsets.UTF_8;
        }
        return switch (lcid) {
            case 0x0804 -> java.nio.charset.Charset.forName("MS936");
            case 0x0411 -> java.nio.charset.Charset.forName("MS932");
            case 0x0404 -> java.nio.charset.Charset.forName("MS950");
            case 0x0412 -> java.nio.charset.Charset.forName("MS949");
            case 0x0419 -> java.nio.charset.Charset.forName("Cp1251");
            default -> java.nio.charset.Charset.forName("Cp1252");
        };
    }

    static Object value(PayloadReader r, WireType w) {
        Kind k = w.type().kind();
        switch (w.tdsType()) {
            case TdsTypes.NULLTYPE:
                return null;
            case TdsTypes.INT1, TdsTypes.INT2, TdsTypes.INT4, TdsTypes.INT8, TdsTypes.BIT, TdsTypes.FLT4, TdsTypes.FLT8,
                TdsTypes.MONEY, TdsTypes.MONEY4, TdsTypes.DATETIME, TdsTypes.DATETIM4:
                return fixedValue(r, k, w.maxLength());
            case TdsTypes.BIGVARCHR, TdsTypes.BIGCHAR, TdsTypes.NVARCHAR, TdsTypes.NCHAR, TdsTypes.XML:
                byte[] text = w.maxLength() == TdsTypes.MAX_LEN ? plp(r) : shortBytes(r);
                return text == null ? null : new String(text, w.charset());
            case TdsTypes.BIGVARBIN, TdsTypes.BIGBINARY:
                return w.maxLength() == TdsTypes.MAX_LEN ? plp(r) : shortBytes(r);
            case TdsTypes.TEXT, TdsTypes.NTEXT, TdsTypes.IMAGE: {
                int len = r.i32();
                if (len == -1) {
                    return null;
                }
                byte[] b = r.bytes(len);
                return w.tdsType() == TdsTypes.IMAGE ? b : new String(b, w.charset());
            }
            default:
                break;
        }
        int len = r.u8();
        if (len == 0) {
            return null;
        }
        return switch (k) {
            case DECIMAL, NUMERIC -> {
                int sign = r.u8();
                byte[] le = r.bytes(len - 1);
                byte[] be = new byte[le.length + 1];
                for (int i = 0; i < le.length; i++) {
                    be[be.length - 1 - i] = le[i];
                }
                BigInteger m = new BigInteger(be);
                yield new BigDecimal(sign == 0 ? m.negate() : m, w.type().scale());
            }
            case DATE -> date(r);
            case TIME -> time(r, w.type().scale(), len);
            case DATETIME2 -> {
                LocalTime t = time(r, w.type().scale(), len - 3);
                yield LocalDateTime.of(date(r), t);
            }
            case DATETIMEOFFSET -> {
                LocalTime t = time(r, w.type().scale(), len - 5);
                LocalDate d = date(r);
                int minutes = (short) r.u16();
                yield OffsetDateTime.of(LocalDateTime.of(d, t), ZoneOffset.UTC)
                    .withOffsetSameInstant(ZoneOffset.ofTotalSeconds(minutes * 60));
            }
            case UNIQUEIDENTIFIER -> guid(r.bytes(16));
            default -> fixedValue(r, len == 4 && k == Kind.MONEY ? Kind.SMALLMONEY
                : len == 4 && k == Kind.DATETIME ? Kind.SMALLDATETIME : k, len);
        };
    }

    private static Object fixedValue(PayloadReader r, Kind k, int len) {
        return switch (k) {
            case TINYINT -> (short) r.u8();
            case SMALLINT -> (short) r.u16();
            case INT -> r.i32();
            case BIGINT -> r.i64();
            case BIT -> r.u8() != 0;
            case REAL -> Float.intBitsToFloat(r.i32());
            case FLOAT -> Double.longBitsToDouble(r.i64());
            case MONEY -> {
                long high = r.i32();
                long low = r.u32();
                yield BigDecimal.valueOf((high << 32) | low, 4);
            }
            case SMALLMONEY -> BigDecimal.valueOf(r.i32(), 4);
            case DATETIME -> {
                LocalDate d = DATETIME_EPOCH.plusDays(r.i32());
                long ticks = r.u32();
                yield LocalDateTime.of(d, LocalTime.ofNanoOfDay(Math.round(ticks * 1_000_000_000.0 / 300 / 1_000_000)
                    * 1_000_000));
            }
            case SMALLDATETIME -> {
                LocalDate d = DATETIME_EPOCH.plusDays(r.u16());
                yield LocalDateTime.of(d, LocalTime.ofSecondOfDay(r.u16() * 60L));
            }
            default -> throw new TdsProtocolException("fixed-length parameter of kind " + k + " (length " + len + ")");
        };
    }

    private static byte[] shortBytes(PayloadReader r) {
        int len = r.u16();
        return len == 0xFFFF ? null : r.bytes(len);
    }

    private static byte[] plp(PayloadReader r) {
        long total = r.i64();
        if (total == TdsTypes.PLP_NULL) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            int chunk = r.i32();
            if (chunk == 0) {
                return out.toByteArray();
            }
            out.writeBytes(r.bytes(chunk));
        }
    }

    private static LocalDate date(PayloadReader r) {
        int days = r.u8() | (r.u8() << 8) | (r.u8() << 16);
        return DAY_ONE.plusDays(days);
    }

    private static LocalTime time(PayloadReader r, int scale, int length) {
        long units = 0;
        for (int i = 0; i < length; i++) {
            units |= (long) r.u8() << (8 * i);
        }
        return LocalTime.ofNanoOfDay(units * TdsTypes.nanosPerUnit(scale));
    }

    static UUID guid(byte[] b) {
        long msb = 0;
        int[] order = {3, 2, 1, 0, 5, 4, 7, 6};
        for (int i : order) {
            msb = (msb << 8) | (b[i] & 0xFF);
        }
        long lsb = 0;
        for (int i = 8; i < 16; i++) {
            lsb = (lsb << 8) | (b[i] & 0xFF);
        }
        return new UUID(msb, lsb);
    }
}
