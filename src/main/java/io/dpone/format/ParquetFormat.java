package io.dpone.format;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.format.parquet.ParquetColumn;
import io.dpone.format.parquet.ParquetColumn.Encoding;
import io.dpone.format.parquet.RowGroupFileWriter;
import io.dpone.format.parquet.ZstdCodecFactory;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.TimestampType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Types;

/**
 * Parquet chunks, written without Hadoop (parquet-hadoop's file writer over a local file, zstd-jni for ZSTD) and
 * read by ClickHouse's {@code file(..., 'Parquet', structure)}. The writer encodes the canonical values straight
 * into parquet's column writers, one row group at a time, so memory stays bounded by the row-group size whatever
 * the chunk's row count. The type mapping is {@link ParquetColumn}'s; ClickHouse reads every column as its target
 * type except timestamps: {@code DateTime64(n)} with n other than 3 and 6 is read as the file's
 * {@code DateTime64(3)}/{@code DateTime64(6)} (MILLIS/MICROS) and {@code DateTime64(7..9)} as its decimal seconds,
 * and {@link #readExpression} casts them to the target type, exactly (the values are whole multiples).
 */
public final class ParquetFormat implements ChunkFormat {
    /** Row groups are cut at this many buffered (encoded, compressed) bytes... */
    public static final long DEFAULT_ROW_GROUP_BYTES = 64L << 20;
    /** ...or at this many rows, whichever comes first, so ClickHouse can read a chunk's row groups in parallel. */
    public static final long DEFAULT_ROW_GROUP_ROWS = 256 * 1024;

    private final long rowGroupBytes;
    private final long rowGroupRows;
    private final CompressionCodecName codec;
    private final int level;

    /** ZSTD at {@link ZstdCodecFactory#DEFAULT_LEVEL}, default row-group bounds. */
    public ParquetFormat() {
        this(DEFAULT_ROW_GROUP_BYTES, DEFAULT_ROW_GROUP_ROWS, CompressionCodecName.ZSTD, ZstdCodecFactory.DEFAULT_LEVEL);
    }

    /**
     * @param rowGroupBytes buffered bytes at which a row group is cut
     * @param rowGroupRows  rows at which a row group is cut
     * @param codec         {@code ZSTD} or {@code UNCOMPRESSED}
     * @param level         ZSTD level (ignored when uncompressed)
     */
    public ParquetFormat(long rowGroupBytes, long rowGroupRows, CompressionCodecName codec, int level) {
        if (rowGroupBytes < 1 || rowGroupRows < 1) {
            throw new IllegalArgumentException("row-group bounds must be positive");
        }
        if (codec != CompressionCodecName.ZSTD && codec != CompressionCodecName.UNCOMPRESSED) {
            throw new IllegalArgumentException("Parquet chunks support ZSTD or UNCOMPRESSED, not " + codec);
        }
        this.rowGroupBytes = rowGroupBytes;
        this.rowGroupRows = rowGroupRows;
        this.codec = codec;
        this.level = level;
    }

    @Override
    public String clickHouseFormat() {
        return "Parquet";
    }

    @Override
    public String extension() {
        return "parquet";
    }

    @Override
    public ChunkWriter open(Path file, List<SourceColumn> columns) {
        try {
            return new Writer(file, columns.stream().map(ParquetColumn::of).toArray(ParquetColumn[]::new));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a chunk file", e);
        }
    }

    @Override
    public String readExpression(SourceColumn column) {
        return ParquetColumn.of(column).readExpression();
    }

    @Override
    public String structure(List<SourceColumn> columns) {
        return columns.stream().map(ParquetColumn::of)
            .map(c -> ClickHouseSql.id(c.source().name()) + " " + c.structureType())
            .collect(Collectors.joining(", "));
    }

    /** The Parquet schema a chunk of {@code columns} is written with. */
    public static MessageType schema(List<SourceColumn> columns) {
        return schema(columns.stream().map(ParquetColumn::of).toArray(ParquetColumn[]::new));
    }

    private static MessageType schema(ParquetColumn[] columns) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (ParquetColumn c : columns) {
            b.addField(c.type());
        }
        return b.named("dpone_chunk");
    }

    private final class Writer implements ChunkWriter {
        private final Path path;
        private final RowGroupFileWriter out;
        private final BytesInputCompressor compressor;
        private final Encoding[] encodings;
        private final boolean[] nullable;
        private final long[] multipliers;
        private final int[] scales;
        private final TimestampType[] timestamps;
        private final byte[][] fixed;
        private final ByteBuf text = new ByteBuf(1024);
        private long finalBytes = -1;
        private boolean failed;

        Writer(Path path, ParquetColumn[] columns) throws IOException {
            this.path = path;
            int n = columns.length;
            encodings = new Encoding[n];
            nullable = new boolean[n];
            multipliers = new long[n];
            scales = new int[n];
            timestamps = new TimestampType[n];
            fixed = new byte[n][];
            for (int i = 0; i < n; i++) {
                ParquetColumn c = columns[i];
                encodings[i] = c.encoding();
                nullable[i] = c.source().nullable();
                multipliers[i] = c.multiplier();
                scales[i] = c.scale();
                timestamps[i] = c.source().type() instanceof TimestampType t ? t : null;
                fixed[i] = new byte[c.encoding() == Encoding.UUID ? 16 : c.fixedLength()];
            }
            MessageType schema = schema(columns);
            // V1 data pages (PLAIN, dictionary) are what every reader supports; statistics and page CRCs cost
            // under a tenth of the write time and keep the file a normal Parquet file
            ParquetProperties props = ParquetProperties.builder()
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .withDictionaryEncoding(true)
                .build();
            compressor = new ZstdCodecFactory(level).getCompressor(codec, level);
            try {
                out = new RowGroupFileWriter(path, schema, props, compressor, rowGroupBytes, rowGroupRows, Map.of());
            } catch (IOException | RuntimeException e) {
                compressor.release();
                throw e;
            }
        }

        @Override
        public void write(Object[] row, ByteBuf rowBinary) {
            if (failed) {
                throw new IllegalStateException("chunk writer failed earlier");
            }
            try {
                ColumnWriter[] w = out.columns();
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
                out.endRow();
            } catch (IOException e) {
                failed = true;
                throw new UncheckedIOException("cannot write a chunk file", e);
            } catch (RuntimeException e) {
                failed = true;
                throw e;
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
                case DECIMAL_INT32 -> w.write(unscaled(i, v).intValueExact(), 0, dl);
                case DECIMAL_INT64 -> w.write(unscaled(i, v).longValueExact(), 0, dl);
                case DECIMAL_FIXED -> w.write(fixed(i, unscaled(i, v)), 0, dl);
                case TIMESTAMP_INT64 ->
                    w.write(Math.multiplyExact(timestamps[i].ticks((LocalDateTime) v), multipliers[i]), 0, dl);
                case TIMESTAMP_FIXED -> w.write(fixed(i, timestamps[i].ticks((LocalDateTime) v)), 0, dl);
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

        /** The unscaled value at the declared scale; a value at another scale is rescaled only if exact. */
        private BigInteger unscaled(int i, Object v) {
            BigDecimal d = (BigDecimal) v;
            if (d.scale() != scales[i]) {
                d = d.setScale(scales[i], RoundingMode.UNNECESSARY);
            }
            return d.unscaledValue();
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

        @Override
        public long bytes() {
            if (finalBytes >= 0) {
                return finalBytes;
            }
            try {
                return out.estimatedBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot size a chunk file", e);
            }
        }

        @Override
        public void close() {
            if (finalBytes >= 0) {
                return;
            }
            try {
                if (failed) {
                    out.abort();
                    finalBytes = 0;
                    return;
                }
                out.close();
                finalBytes = Files.size(path);
            } catch (IOException e) {
                failed = true;
                finalBytes = 0;
                out.abort();
                throw new UncheckedIOException("cannot complete a chunk file", e);
            } finally {
                compressor.release();
            }
        }
    }
}
