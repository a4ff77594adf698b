package io.dpone.format.parquet;

import io.dpone.format.parquet.ParquetColumn.Encoding;
import java.util.EnumSet;
import java.util.Set;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How a Parquet chunk is written: row-group bounds, page compression, the page size, which column encodings get a
 * dictionary, and the optional metadata parquet-java computes per value or per page (min/max statistics with the
 * column index, size statistics, page CRCs). None of these change a value ClickHouse reads; they change the file's
 * size and the CPU spent writing and reading it (bench/ParquetEncodeBench.java measures both sides).
 *
 * @param rowGroupBytes  buffered (encoded, compressed) bytes at which a row group is cut
 * @param rowGroupRows   rows at which a row group is cut, so ClickHouse can read a chunk's row groups in parallel
 * @param codec          {@code ZSTD} or {@code UNCOMPRESSED}
 * @param level          ZSTD level (ignored when uncompressed)
 * @param pageBytes      target size of a data page before compression
 * @param pageRows       most rows in one data page
 * @param dictionary     the column encodings written with a dictionary (falling back to plain when it grows)
 * @param dictionaryBytes size at which a column's dictionary falls back to plain encoding
 * @param statistics     min/max statistics per page and column chunk, and the column index built from them
 * @param sizeStatistics parquet's size statistics (unencoded byte-array sizes, level histograms)
 * @param pageChecksums  a CRC32 of every page
 */
public record ParquetWriteOptions(long rowGroupBytes, long rowGroupRows, CompressionCodecName codec, int level,
                                  int pageBytes, int pageRows, Set<Encoding> dictionary, int dictionaryBytes,
                                  boolean statistics, boolean sizeStatistics, boolean pageChecksums) {
    /** Row groups are cut at this many buffered (encoded, compressed) bytes... */
    public static final long DEFAULT_ROW_GROUP_BYTES = 64L << 20;
    /** ...or at this many rows, whichever comes first. */
    public static final long DEFAULT_ROW_GROUP_ROWS = 256 * 1024;
    /** parquet-java's default page size. */
    public static final int DEFAULT_PAGE_BYTES = ParquetProperties.DEFAULT_PAGE_SIZE;
    /** parquet-java's default row limit of a page. */
    public static final int DEFAULT_PAGE_ROWS = ParquetProperties.DEFAULT_PAGE_ROW_COUNT_LIMIT;
    /** parquet-java's default dictionary size limit. */
    public static final int DEFAULT_DICTIONARY_BYTES = ParquetProperties.DEFAULT_DICTIONARY_PAGE_SIZE;

    public ParquetWriteOptions {
        if (rowGroupBytes < 1 || rowGroupRows < 1) {
            throw new IllegalArgumentException("row-group bounds must be positive");
        }
        if (codec != CompressionCodecName.ZSTD && codec != CompressionCodecName.UNCOMPRESSED) {
            throw new IllegalArgumentException("Parquet chunks support ZSTD or UNCOMPRESSED, not " + codec);
        }
        if (pageBytes < 1024 || pageRows < 1 || dictionaryBytes < 1024) {
            throw new IllegalArgumentException("page and dictionary sizes must be at least 1 KiB and 1 row");
        }
        dictionary = dictionary.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(dictionary));
    }

    /** parquet-java's writer defaults: a dictionary for every column, every statistic and page CRCs, ZSTD level 1. */
    public static ParquetWriteOptions parquetJavaDefaults() {
        return new ParquetWriteOptions(DEFAULT_ROW_GROUP_BYTES, DEFAULT_ROW_GROUP_ROWS, CompressionCodecName.ZSTD,
            ZstdCodecFactory.DEFAULT_LEVEL, DEFAULT_PAGE_BYTES, DEFAULT_PAGE_ROWS, EnumSet.allOf(Encoding.class),
            DEFAULT_DICTIONARY_BYTES, true, true, true);
    }

    public ParquetWriteOptions withRowGroups(long bytes, long rows) {
        return new ParquetWriteOptions(bytes, rows, codec, level, pageBytes, pageRows, dictionary, dictionaryBytes,
            statistics, sizeStatistics, pageChecksums);
    }

    public ParquetWriteOptions withCodec(CompressionCodecName c, int l) {
        return new ParquetWriteOptions(rowGroupBytes, rowGroupRows, c, l, pageBytes, pageRows, dictionary,
            dictionaryBytes, statistics, sizeStatistics, pageChecksums);
    }

    public ParquetWriteOptions withPages(int bytes, int rows) {
        return new ParquetWriteOptions(rowGroupBytes, rowGroupRows, codec, level, bytes, rows, dictionary,
            dictionaryBytes, statistics, sizeStatistics, pageChecksums);
    }

    public ParquetWriteOptions withDictionary(Set<Encoding> encodings, int bytes) {
        return new ParquetWriteOptions(rowGroupBytes, rowGroupRows, codec, level, pageBytes, pageRows, encodings,
            bytes, statistics, sizeStatistics, pageChecksums);
    }

    public ParquetWriteOptions withStatistics(boolean minMax, boolean sizes) {
        return new ParquetWriteOptions(rowGroupBytes, rowGroupRows, codec, level, pageBytes, pageRows, dictionary,
            dictionaryBytes, minMax, sizes, pageChecksums);
    }

    public ParquetWriteOptions withPageChecksums(boolean on) {
        return new ParquetWriteOptions(rowGroupBytes, rowGroupRows, codec, level, pageBytes, pageRows, dictionary,
            dictionaryBytes, statistics, sizeStatistics, on);
    }

    /** parquet-java's properties for a chunk of {@code columns}: V1 data pages, which every reader supports. */
    public ParquetProperties properties(ParquetColumn[] columns) {
        ParquetProperties.Builder b = ParquetProperties.builder()
            .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
            .withPageSize(pageBytes)
            .withPageRowCountLimit(pageRows)
            .withDictionaryEncoding(false)
            .withDictionaryPageSize(dictionaryBytes)
            .withStatisticsEnabled(statistics)
            .withSizeStatisticsEnabled(sizeStatistics)
            .withPageWriteChecksumEnabled(pageChecksums);
        for (ParquetColumn c : columns) {
            if (dictionary.contains(c.encoding())) {
                b.withDictionaryEncoding(c.source().name(), true);
            }
        }
        return b.build();
    }
}
