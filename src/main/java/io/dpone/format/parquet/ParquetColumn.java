package io.dpone.format.parquet;

import io.dpone.clickhouse.ClickHouseSql;
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
import java.math.BigInteger;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * How one source column is stored in a Parquet chunk and read back by ClickHouse: the Parquet physical and logical
 * type, how the canonical Java value is encoded ({@link Encoding}, plus a {@code multiplier} for timestamps and a
 * {@code fixedLength} for wide decimals), the type ClickHouse is told the file column has ({@link #fileType()}) and
 * the expression that turns it into the target type exactly ({@link #readExpression()}).
 *
 * <p>Mapping (every value exact):
 * <ul>
 * <li>{@code UInt8/Int16/Int32} as INT32 with {@code INT(bits, signed)}, {@code Int64} as INT64 {@code INT(64,true)},
 *     {@code Bool} as BOOLEAN;</li>
 * <li>{@code Decimal(p,s)} as {@code DECIMAL(p,s)} on INT32 (p &le; 9), INT64 (p &le; 18), else
 *     FIXED_LEN_BYTE_ARRAY of the minimal length for p, big-endian two's complement;</li>
 * <li>{@code Float32/Float64} as FLOAT/DOUBLE (raw bits);</li>
 * <li>{@code String} (text) as BINARY {@code STRING} (UTF-8), {@code String} (bytes) as BINARY without annotation;</li>
 * <li>{@code Date32} as INT32 {@code DATE};</li>
 * <li>{@code DateTime64(n,'UTC')}, n &le; 3 as INT64 {@code TIMESTAMP(UTC, MILLIS)} and 4..6 as
 *     {@code TIMESTAMP(UTC, MICROS)}. For n &ge; 7 no Parquet timestamp fits: NANOS in an INT64 ends at
 *     2262-04-11, and the mapped range reaches 2299-12-31 (DATETIME2(7)'s 100 ns ticks need 10^-7 s units). Those
 *     columns are {@code DECIMAL(11+n, n)} seconds since the epoch (the DateTime64 ticks as the unscaled value;
 *     INT64 for n = 7, 9-byte FIXED_LEN_BYTE_ARRAY for n = 8, 9), which ClickHouse reads as {@code Decimal} and
 *     casts to {@code DateTime64(n, 'UTC')} without rounding;</li>
 * <li>{@code UUID} as FIXED_LEN_BYTE_ARRAY(16) {@code UUID} (RFC 4122 byte order);</li>
 * <li>{@code Time64(n)} as INT64 {@code DECIMAL(18, n)} seconds since midnight (the ticks as the unscaled value),
 *     cast to {@code Time64(n)} on read; {@code UInt64} (rowversion) as INT64 {@code INT(64, false)}.</li>
 * </ul>
 * Nullable columns are OPTIONAL, the others REQUIRED.
 */
public record ParquetColumn(SourceColumn source, PrimitiveType type, Encoding encoding, long multiplier,
                            int fixedLength, int scale, String fileType) {

    /** How the canonical value is written into the column. */
    public enum Encoding {
        INT32, INT64, BOOLEAN, FLOAT, DOUBLE, TEXT, BYTES, DATE, DECIMAL_INT32, DECIMAL_INT64, DECIMAL_FIXED,
        /** LocalDateTime as {@code ticks(precision) * multiplier} in an INT64. */
        TIMESTAMP_INT64,
        /** LocalDateTime as its ticks, the unscaled value of a DECIMAL in a fixed-length array. */
        TIMESTAMP_FIXED,
        /** LocalTime as its ticks since midnight, the unscaled value of a DECIMAL in an INT64. */
        TIME_INT64,
        UUID
    }

    /** Whole-second digits of a timestamp-as-decimal: covers +-99,999,999,999 s (1900..2299 and far beyond). */
    private static final int SECOND_DIGITS = 11;

    public static ParquetColumn of(SourceColumn c) {
        Repetition rep = c.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
        ColumnType t = c.type();
        String target = t.clickHouseType();
        if (t instanceof IntegerType i) {
            boolean int64 = i.bits() == 64;
            return plain(c, Types.primitive(int64 ? PrimitiveTypeName.INT64 : PrimitiveTypeName.INT32, rep)
                .as(LogicalTypeAnnotation.intType(i.bits(), !i.unsigned())).named(c.name()),
                int64 ? Encoding.INT64 : Encoding.INT32, target);
        }
        if (t instanceof BoolType) {
            return plain(c, Types.primitive(PrimitiveTypeName.BOOLEAN, rep).named(c.name()), Encoding.BOOLEAN, target);
        }
        if (t instanceof DecimalType d) {
            return decimal(c, rep, d.precision(), d.scale(), target, false);
        }
        if (t instanceof FloatType f) {
            boolean f32 = f.bits() == 32;
            return plain(c, Types.primitive(f32 ? PrimitiveTypeName.FLOAT : PrimitiveTypeName.DOUBLE, rep)
                .named(c.name()), f32 ? Encoding.FLOAT : Encoding.DOUBLE, target);
        }
        if (t instanceof StringType) {
            return plain(c, Types.primitive(PrimitiveTypeName.BINARY, rep).as(LogicalTypeAnnotation.stringType())
                .named(c.name()), Encoding.TEXT, target);
        }
        if (t instanceof BinaryType) {
            return plain(c, Types.primitive(PrimitiveTypeName.BINARY, rep).named(c.name()), Encoding.BYTES, target);
        }
        if (t instanceof DateType) {
            return plain(c, Types.primitive(PrimitiveTypeName.INT32, rep).as(LogicalTypeAnnotation.dateType())
                .named(c.name()), Encoding.DATE, target);
        }
        if (t instanceof TimestampType ts) {
            int n = ts.precision();
            if (n <= 6) {
                boolean millis = n <= 3;
                PrimitiveType p = Types.primitive(PrimitiveTypeName.INT64, rep)
                    .as(LogicalTypeAnnotation.timestampType(true, millis ? TimeUnit.MILLIS : TimeUnit.MICROS))
                    .named(c.name());
                long multiplier = pow10((millis ? 3 : 6) - n);
                return new ParquetColumn(c, p, Encoding.TIMESTAMP_INT64, multiplier, 0, n,
                    "DateTime64(" + (millis ? 3 : 6) + ", 'UTC')");
            }
            return decimal(c, rep, SECOND_DIGITS + n, n, "Decimal(" + (SECOND_DIGITS + n) + ", " + n + ")", true);
        }
        if (t instanceof TimeType tm) {
            // precision 18, not the 5+n digits a day needs: ClickHouse's Parquet reader expects INT32 pages for a
            // decimal of precision 9 or less (measured: "Unexpected uncompressed page size" for DECIMAL(8,3) in INT64)
            int n = tm.precision();
            return new ParquetColumn(c, Types.primitive(PrimitiveTypeName.INT64, rep)
                .as(LogicalTypeAnnotation.decimalType(n, 18)).named(c.name()), Encoding.TIME_INT64, 1, 0, n,
                "Decimal(18, " + n + ")");
        }
        if (t instanceof RowVersionType) {
            return plain(c, Types.primitive(PrimitiveTypeName.INT64, rep).as(LogicalTypeAnnotation.intType(64, false))
                .named(c.name()), Encoding.INT64, target);
        }
        if (t instanceof UuidType) {
            return plain(c, Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep).length(16)
                .as(LogicalTypeAnnotation.uuidType()).named(c.name()), Encoding.UUID, target);
        }
        throw new IllegalArgumentException("no Parquet mapping for " + t);
    }

    private static ParquetColumn plain(SourceColumn c, PrimitiveType p, Encoding e, String fileType) {
        return new ParquetColumn(c, p, e, 1, 0, 0, fileType);
    }

    private static ParquetColumn decimal(SourceColumn c, Repetition rep, int precision, int scale, String fileType,
                                         boolean timestamp) {
        LogicalTypeAnnotation dec = LogicalTypeAnnotation.decimalType(scale, precision);
        if (precision <= 9 && !timestamp) {
            return new ParquetColumn(c, Types.primitive(PrimitiveTypeName.INT32, rep).as(dec).named(c.name()),
                Encoding.DECIMAL_INT32, 1, 0, scale, fileType);
        }
        if (precision <= 18) {
            return new ParquetColumn(c, Types.primitive(PrimitiveTypeName.INT64, rep).as(dec).named(c.name()),
                timestamp ? Encoding.TIMESTAMP_INT64 : Encoding.DECIMAL_INT64, 1, 0, scale, fileType);
        }
        int length = minimalBytes(precision);
        return new ParquetColumn(c, Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep).length(length)
            .as(dec).named(c.name()), timestamp ? Encoding.TIMESTAMP_FIXED : Encoding.DECIMAL_FIXED, 1, length,
            scale, fileType);
    }

    /** The fewest bytes whose two's complement holds every unscaled value of {@code precision} digits. */
    static int minimalBytes(int precision) {
        BigInteger max = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
        return (max.bitLength() + 1 + 7) / 8; // + sign bit
    }

    private static long pow10(int n) {
        long v = 1;
        for (int i = 0; i < n; i++) {
            v *= 10;
        }
        return v;
    }

    /** The column's type in the structure ClickHouse is told the file has, Nullable-wrapped like the target. */
    public String structureType() {
        return source.nullable() ? "Nullable(" + fileType + ")" : fileType;
    }

    /** True when ClickHouse reads the file column as the target type itself. */
    public boolean readsTargetType() {
        return fileType.equals(source.type().clickHouseType());
    }

    /** The SELECT expression that yields the target column type exactly. */
    public String readExpression() {
        String id = ClickHouseSql.id(source.name());
        return readsTargetType() ? id : "CAST(" + id + ", " + ClickHouseSql.literal(source.clickHouseType()) + ")";
    }
}
