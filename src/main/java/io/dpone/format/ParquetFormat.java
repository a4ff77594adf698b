package io.dpone.format;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.format.parquet.ParquetColumn;
import io.dpone.format.parquet.ParquetWriteOptions;
import io.dpone.source.SourceColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Types;

/**
 * Parquet chunks, written without Hadoop (parquet-hadoop's file writer over a local file, zstd-jni for ZSTD) and
 * read by ClickHouse's {@code file(..., 'Parquet', structure)}. The writer ({@link ParquetChunkWriter}, rows
 * encoded by {@link ParquetRowEncoder}) encodes the canonical values straight into parquet's column writers, one
 * row group at a time, so memory stays bounded by the row-group size whatever the chunk's row count. The type
 * mapping is {@link ParquetColumn}'s; ClickHouse reads every column as its target type except timestamps:
 * {@code DateTime64(n)} with n other than 3 and 6 is read as the file's {@code DateTime64(3)}/{@code DateTime64(6)}
 * (MILLIS/MICROS) and {@code DateTime64(7..9)} as its decimal seconds, and {@link #readExpression} casts them to the
 * target type, exactly (the values are whole multiples).
 *
 * <p>How the pages are written is {@link ParquetWriteOptions}; the default ({@link #DEFAULT_OPTIONS}) drops what a
 * full pull does not read and the writer pays per value: no min/max or size statistics (no column index), no page
 * CRCs, no dictionaries, pages of up to 4 MiB / 100,000 rows, ZSTD level 1. Measured with
 * bench/ParquetEncodeBench.java (bench/README.md, "Issue 19, items 4-5"): the same 1M demo rows cost about a third
 * less encoder CPU than parquet-java's defaults, the same engine CPU to pull, and 4% more bytes.
 */
public final class ParquetFormat implements ChunkFormat {
    /** Row groups are cut at this many buffered (encoded, compressed) bytes... */
    public static final long DEFAULT_ROW_GROUP_BYTES = ParquetWriteOptions.DEFAULT_ROW_GROUP_BYTES;
    /** ...or at this many rows, whichever comes first, so ClickHouse can read a chunk's row groups in parallel. */
    public static final long DEFAULT_ROW_GROUP_ROWS = ParquetWriteOptions.DEFAULT_ROW_GROUP_ROWS;
    /** Pages of a default chunk: up to this many bytes before compression... */
    public static final int DEFAULT_PAGE_BYTES = 4 << 20;
    /** ...and this many rows (a 100k-row chunk is one page per column). */
    public static final int DEFAULT_PAGE_ROWS = 100_000;
    /** How chunks are written unless told otherwise (see the class comment). */
    public static final ParquetWriteOptions DEFAULT_OPTIONS = ParquetWriteOptions.parquetJavaDefaults()
        .withStatistics(false, false)
        .withPageChecksums(false)
        .withDictionary(java.util.Set.of(), ParquetWriteOptions.DEFAULT_DICTIONARY_BYTES)
        .withPages(DEFAULT_PAGE_BYTES, DEFAULT_PAGE_ROWS);

    private final ParquetWriteOptions options;

    /** {@link #DEFAULT_OPTIONS}. */
    public ParquetFormat() {
        this(DEFAULT_OPTIONS);
    }

    /**
     * The default options with other row-group bounds and compression.
     *
     * @param rowGroupBytes buffered bytes at which a row group is cut
     * @param rowGroupRows  rows at which a row group is cut
     * @param codec         {@code ZSTD} or {@code UNCOMPRESSED}
     * @param level         ZSTD level (ignored when uncompressed)
     */
    public ParquetFormat(long rowGroupBytes, long rowGroupRows, CompressionCodecName codec, int level) {
        this(DEFAULT_OPTIONS.withRowGroups(rowGroupBytes, rowGroupRows).withCodec(codec, level));
    }

    public ParquetFormat(ParquetWriteOptions options) {
        this.options = java.util.Objects.requireNonNull(options, "options");
    }

    /** The options chunks are written with. */
    public ParquetWriteOptions options() {
        return options;
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
            return new ParquetChunkWriter(file, columns.stream().map(ParquetColumn::of).toArray(ParquetColumn[]::new),
                options);
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

    static MessageType schema(ParquetColumn[] columns) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (ParquetColumn c : columns) {
            b.addField(c.type());
        }
        return b.named("dpone_chunk");
    }
}
