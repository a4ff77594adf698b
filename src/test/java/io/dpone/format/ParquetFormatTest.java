package io.dpone.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.format.parquet.ParquetColumn;
import io.dpone.format.parquet.ParquetWriteOptions;
import io.dpone.format.parquet.ZstdCodecFactory;
import io.dpone.source.SourceColumn;
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
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet chunks load into the embedded ClickHouse exactly: every type family, at its edges, NULL in every nullable
 * column and the same values in REQUIRED columns, compared per column by bits (floats), digits (decimals), bytes
 * (text), ticks (timestamps), and as a whole by the typed hash the quality gate uses.
 */
/** {@link ParquetFormat}: the {@link ChunkFormatContract}, and row groups, codecs and abandoned chunks. */
@io.dpone.testing.EngineTest
class ParquetFormatTest extends ChunkFormatContract {
    @Override
    ChunkFormat format() {
        return new ParquetFormat();
    }

    @Test
    void largeChunkIsCutIntoRowGroupsAndLoadsWhole() throws Exception {
        List<SourceColumn> columns = List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false)),
            new SourceColumn("name", "nvarchar", true, new StringType()),
            new SourceColumn("amount", "decimal", true, new DecimalType(38, 10)),
            new SourceColumn("qty", "decimal", false, new DecimalType(18, 4)),
            new SourceColumn("at", "datetime2", true, new TimestampType(7, false)),
            new SourceColumn("g", "uniqueidentifier", false, new UuidType()));
        int n = 300_000;
        ParquetFormat format = new ParquetFormat(1L << 20, Long.MAX_VALUE, CompressionCodecName.ZSTD, 1);
        Path file = dir.resolve("large.parquet");
        RowBinaryEncoder encoder = new RowBinaryEncoder(columns);
        ByteBuf buf = new ByteBuf(1024);
        long hash = 0;
        long estimateBeforeClose;
        ChunkWriter w = format.open(file, columns);
        try {
            Object[] row = new Object[columns.size()];
            for (int i = 0; i < n; i++) {
                fillRow(row, i);
                buf.reset();
                encoder.encode(row, buf);
                hash += XXH.hash(buf.array(), 0, buf.length(), 0);
                w.write(row, buf);
            }
            estimateBeforeClose = w.bytes();
        } finally {
            w.close();
        }
        assertTrue(estimateBeforeClose > 0);
        assertEquals(Files.size(file), w.bytes());
        String meta = "file(" + ClickHouseSql.literal(file.toString()) + ", 'ParquetMetadata')";
        int rowGroups = Integer.parseInt(ch.query("SELECT num_row_groups FROM " + meta).get(0).get(0));
        assertTrue(rowGroups > 1, "row groups: " + rowGroups);
        String table = load(format, "large", columns, file);
        assertEquals(String.valueOf(n), ch.query("SELECT count() FROM " + table).get(0).get(0));
        assertEquals(Long.toUnsignedString(hash), typedHash(table, columns));
    }

    @Test
    void rowCountBoundCutsRowGroups() throws Exception {
        List<SourceColumn> columns = List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false)),
            new SourceColumn("s", "nvarchar", true, new StringType()));
        ParquetFormat format = new ParquetFormat(ParquetFormat.DEFAULT_ROW_GROUP_BYTES, 1000,
            CompressionCodecName.UNCOMPRESSED, 0);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 2500; i++) {
            rows.add(new Object[] {(long) i, i % 3 == 0 ? null : "v" + i});
        }
        Path file = dir.resolve("bounded.parquet");
        long hash = write(format, file, columns, rows);
        String meta = "file(" + ClickHouseSql.literal(file.toString()) + ", 'ParquetMetadata')";
        assertEquals("3", ch.query("SELECT num_row_groups FROM " + meta).get(0).get(0));
        String table = load(format, "bounded", columns, file);
        assertEquals(Long.toUnsignedString(hash), typedHash(table, columns));

        Path empty = dir.resolve("empty.parquet");
        write(format, empty, columns, List.of());
        String emptyTable = load(format, "empty", columns, empty);
        assertEquals("0", ch.query("SELECT count() FROM " + emptyTable).get(0).get(0));
    }

    @Test
    void failedChunkIsAbandonedWithItsFileClosed() throws Exception {
        List<SourceColumn> columns = List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false)),
            new SourceColumn("s", "nvarchar", false, new StringType()));
        Path file = dir.resolve("failed.parquet");
        ChunkWriter w = new ParquetFormat().open(file, columns);
        w.write(new Object[] {1L, "ok"}, new ByteBuf(16));
        boolean proc = Files.isDirectory(Path.of("/proc/self/fd"));
        assertEquals(proc ? 1 : 0, openDescriptors(file));
        Exception e = assertThrows(IllegalStateException.class, () -> w.write(new Object[] {2L, null}, new ByteBuf(16)));
        assertTrue(e.getMessage().contains("non-nullable"));
        assertThrows(IllegalStateException.class, () -> w.write(new Object[] {3L, "x"}, new ByteBuf(16)));
        w.close(); // abandons: no footer, no exception, descriptor released
        assertEquals(0, w.bytes());
        assertEquals(0, openDescriptors(file));
    }

    /** Descriptors this process holds on {@code file} (Linux), or 0 where /proc is unavailable. */
    static long openDescriptors(Path file) throws Exception {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return 0;
        }
        Path real = file.toRealPath();
        try (var list = Files.list(fds)) {
            return list.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).equals(real);
                } catch (Exception ignored) {
                    return false;
                }
            }).count();
        }
    }

    @Test
    void writeOptionsReachTheFile() {
        List<SourceColumn> columns = List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false)),
            new SourceColumn("s", "nvarchar", true, new StringType()),
            new SourceColumn("q", "decimal", true, new DecimalType(38, 10)),
            new SourceColumn("g", "uniqueidentifier", true, new UuidType()));
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            rows.add(new Object[] {(long) i, i % 7 == 0 ? null : "v" + (i % 10), BigDecimal.valueOf(i, 10),
                new UUID(i, -i)});
        }
        // the default: no dictionary for these encodings, no statistics, ZSTD
        ParquetWriteOptions defaults = ParquetFormat.DEFAULT_OPTIONS;
        Path plain = dir.resolve("options-default.parquet");
        long hash = write(new ParquetFormat(), plain, columns, rows);
        List<List<String>> meta = footer(plain);
        for (List<String> c : meta) {
            ParquetColumn.Encoding e = ParquetColumn.of(columns.stream().filter(x -> x.name().equals(c.get(0)))
                .findFirst().orElseThrow()).encoding();
            assertEquals(defaults.dictionary().contains(e), c.get(1).contains("DICTIONARY"), c.toString());
            assertEquals("ZSTD", c.get(2), c.toString());
            assertEquals("0", c.get(3), c.toString());
        }
        assertEquals(Long.toUnsignedString(hash), typedHash(load(new ParquetFormat(), "options_default", columns,
            plain), columns));

        // parquet-java's defaults: statistics on every column, a dictionary on those that stay small (s has 10
        // values; the others are unique and fall back to plain), and nothing else changes the values
        ParquetFormat java = new ParquetFormat(ParquetWriteOptions.parquetJavaDefaults()
            .withCodec(CompressionCodecName.UNCOMPRESSED, 0));
        Path dict = dir.resolve("options-java.parquet");
        assertEquals(hash, write(java, dict, columns, rows));
        for (List<String> c : footer(dict)) {
            assertEquals(c.get(0).equals("s"), c.get(1).contains("DICTIONARY"), c.toString());
            assertEquals("UNCOMPRESSED", c.get(2), c.toString());
            assertEquals("1", c.get(3), c.toString());
        }
        assertEquals(Long.toUnsignedString(hash), typedHash(load(java, "options_java", columns, dict), columns));
    }

    /** Package-visible for {@link ParquetDictionaryFormatTest}. */
    static List<List<String>> footerOf(Path file) {
        return footer(file);
    }

    /** Per column of the file: name, encodings, compression, and whether any row group has statistics for it. */
    private static List<List<String>> footer(Path file) {
        String meta = "file(" + ClickHouseSql.literal(file.toString()) + ", 'ParquetMetadata')";
        return ch.query("SELECT tupleElement(c, 'name'), toString(tupleElement(c, 'encodings')),"
            + " tupleElement(c, 'compression'), toString(arrayExists(rg -> arrayExists(x -> tupleElement(x, 'name')"
            + " = tupleElement(c, 'name') AND tupleElement(x, 'have_statistics'), tupleElement(rg, 'columns')),"
            + " row_groups)) FROM " + meta + " ARRAY JOIN columns AS c");
    }

    @Test
    void zstdCodecFactoryRoundTripsPages() throws Exception {
        ZstdCodecFactory codecs = new ZstdCodecFactory(ZstdCodecFactory.DEFAULT_LEVEL);
        byte[] page = new byte[100_000];
        for (int i = 0; i < page.length; i += 97) {
            page[i] = (byte) i;
        }
        var compressor = codecs.getCompressor(CompressionCodecName.ZSTD);
        byte[] compressed = bytes(compressor.compress(BytesInput.from(page)));
        assertTrue(compressed.length < page.length / 10);
        var decompressor = codecs.getDecompressor(CompressionCodecName.ZSTD);
        assertArrayEquals(page, bytes(decompressor.decompress(BytesInput.from(compressed), page.length)));
        ByteBuffer out = ByteBuffer.allocate(page.length);
        decompressor.decompress(ByteBuffer.wrap(compressed), compressed.length, out, page.length);
        assertArrayEquals(page, out.array());
        compressor.release();
        decompressor.release();
    }

    static byte[] bytes(BytesInput in) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        in.writeAllTo(out);
        return out.toByteArray();
    }

    static void fillRow(Object[] row, int i) {
        SplittableRandom r = new SplittableRandom(i);
        row[0] = (long) i;
        row[1] = i % 17 == 0 ? null : "名前 " + i + " 😀";
        row[2] = i % 19 == 0 ? null
            : new BigDecimal(new BigInteger(120, new java.util.Random(r.nextLong())).subtract(BigInteger.ONE.shiftLeft(119)), 10);
        row[3] = BigDecimal.valueOf(r.nextLong(-99_999_999_999_999L, 99_999_999_999_999L), 4);
        row[4] = i % 23 == 0 ? null : LocalDateTime.of(2015, 1, 1, 0, 0).plusSeconds(r.nextLong(0, 400_000_000L))
            .plusNanos(r.nextLong(0, 10_000_000L) * 100);
        row[5] = new UUID(r.nextLong(), r.nextLong());
    }

}
