package io.dpone.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.format.parquet.ZstdCodecFactory;
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
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
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
/**
 * What every {@link ChunkFormat} does, checked through the embedded engine: every mapped type family, NULLs and
 * required columns, is written by the format's writer and read back by ClickHouse exactly as the source held it (and
 * with the same typed hash); an empty chunk is a valid file that loads no rows; {@code bytes()} is the closed file's
 * size. Each format's test extends this and adds what is its own.
 */
abstract class ChunkFormatContract {
    static final XXHash64 XXH = XXHashFactory.fastestInstance().hash64();
    static final int ROWS = 10;

    static final LocalDateTime[] STAMPS = {LocalDateTime.of(1900, 1, 1, 0, 0),
        LocalDateTime.of(2299, 12, 31, 23, 59, 59, 999_999_900), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_900),
        LocalDateTime.of(1970, 1, 1, 0, 0, 0, 100), LocalDateTime.of(2024, 2, 29, 12, 0, 0, 123_456_700),
        LocalDateTime.of(2000, 1, 1, 0, 0), LocalDateTime.of(1900, 1, 1, 0, 0, 0, 100),
        LocalDateTime.of(2038, 1, 19, 3, 14, 8), LocalDateTime.of(2100, 6, 15, 8, 30, 0, 500_000_000),
        LocalDateTime.of(1950, 3, 3, 3, 3, 3, 300)};

    static final LocalTime[] TIMES = {LocalTime.MIDNIGHT, LocalTime.of(23, 59, 59, 999_999_900),
        LocalTime.of(0, 0, 0, 100), LocalTime.NOON, LocalTime.of(12, 34, 56, 123_456_700), LocalTime.of(23, 59, 59),
        LocalTime.of(0, 0, 1), LocalTime.of(9, 5, 3, 500_000_000), LocalTime.of(18, 0, 0, 900), LocalTime.of(1, 2, 3)};

    /** One type family: its values for rows 0..9 and how ClickHouse's text of {@code expr(column)} must read. */
    record Family(String name, ColumnType type, Object[] values, String expr, Function<Object, String> expected) {
    }

    static final List<Family> FAMILIES = List.of(
        new Family("u8", new IntegerType(8, true), longs(0, 255, 1, 128, 127, 254, 2, 100, 200, 42), "toString(%s)",
            String::valueOf),
        new Family("i16", new IntegerType(16, false), longs(Short.MIN_VALUE, Short.MAX_VALUE, 0, -1, 1,
            Short.MIN_VALUE + 1, Short.MAX_VALUE - 1, 256, -256, 12345), "toString(%s)", String::valueOf),
        new Family("i32", new IntegerType(32, false), longs(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1,
            Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1, 1 << 24, -(1 << 24), 123456789), "toString(%s)",
            String::valueOf),
        new Family("i64", new IntegerType(64, false), longs(Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1,
            Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, (1L << 53) + 1, -((1L << 53) + 1), 1234567890123456789L),
            "toString(%s)", String::valueOf),
        new Family("b", new BoolType(), new Object[] {true, false, true, true, false, false, true, false, true, false},
            "toString(%s)", String::valueOf),
        new Family("d9", new DecimalType(9, 2), decimals(2, "9999999.99", "-9999999.99", "0", "0.01", "-0.01",
            "1234567.89", "-1", "2147483.47", "0.5", "100"), "toString(%s)", ChunkFormatContract::plain),
        new Family("d18", new DecimalType(18, 4), decimals(4, "0", "99999999999999.9999", "-99999999999999.9999",
            "0.0001", "-0.0001", "12345.6789", "1", "-1", "314159.2653", "0.5"), "toString(%s)",
            ChunkFormatContract::plain),
        new Family("d19", new DecimalType(19, 4), decimals(4, "922337203685477.5807", "-922337203685477.5808",
            "999999999999999.9999", "-999999999999999.9999", "0", "0.0001", "-0.0001", "922337203685477.5808",
            "-922337203685477.5809", "214748.3647"), "toString(%s)", ChunkFormatContract::plain),
        new Family("d38", new DecimalType(38, 10), decimals(10, "0", "9999999999999999999999999999.9999999999",
            "-9999999999999999999999999999.9999999999", "0.0000000001", "-0.0000000001", "1.2345678901",
            "170141183460469231731.6873037158", "-1", "922337203.6854775808", "-922337203.6854775809"),
            "toString(%s)", ChunkFormatContract::plain),
        new Family("d76", new DecimalType(76, 20), decimals(20, "9".repeat(56) + "." + "9".repeat(20),
            "-" + "9".repeat(56) + "." + "9".repeat(20), "0", "0." + "0".repeat(19) + "1", "-1",
            "12345678901234567890123456789012345678901234567890123456.78901234567890123456", "-0.5",
            "922337203685477580.8", "-922337203685477580.9", "123456789012345678901234567890.12345678901234567890"),
            "toString(%s)", ChunkFormatContract::plain),
        new Family("f64", new FloatType(64), new Object[] {0.0, -0.0, Double.MIN_VALUE, -Double.MAX_VALUE, 0.1 + 0.2,
            Math.PI, 1e-300, Double.MAX_VALUE, -1.0 / 3, Double.MIN_NORMAL}, "reinterpretAsUInt64(%s)",
            v -> Long.toUnsignedString(Double.doubleToRawLongBits((Double) v))),
        new Family("f32", new FloatType(32), new Object[] {0f, -0f, Float.MIN_VALUE, Float.MAX_VALUE, 0.1f, -1f / 3,
            Float.MIN_NORMAL, 16777217f, -Float.MAX_VALUE, 1e-45f}, "reinterpretAsUInt32(%s)",
            v -> Integer.toUnsignedString(Float.floatToRawIntBits((Float) v))),
        new Family("s", new StringType(), new Object[] {"", "ascii", "tab\tnew\nline\r\\back", "Ünïcödé", "李小龍",
            "😀🙏🏽👩‍👩‍👧", "\u0000nul\u0001\u001f\u007f", "'quote\"", "मानक", "x".repeat(5000)}, "hex(%s)",
            v -> hex(((String) v).getBytes(StandardCharsets.UTF_8))),
        new Family("bin", new BinaryType(), new Object[] {new byte[0], new byte[] {0}, new byte[] {(byte) 0xFF},
            new byte[] {1, 0, (byte) 0xFF, (byte) 0x80}, "text".getBytes(StandardCharsets.UTF_8), new byte[300],
            filled(300, 0xFF), new byte[] {(byte) 0xC3, 0x28}, new byte[] {0x7F, (byte) 0x80, 0, 0},
            new byte[] {(byte) 0xFE, (byte) 0xFF}}, "hex(%s)", v -> hex((byte[]) v)),
        new Family("dt", new DateType(), new Object[] {LocalDate.of(1900, 1, 1), LocalDate.of(2299, 12, 31),
            LocalDate.of(1969, 12, 31), LocalDate.of(1970, 1, 1), LocalDate.of(2024, 2, 29), LocalDate.of(2000, 1, 1),
            LocalDate.of(1901, 12, 13), LocalDate.of(2038, 1, 19), LocalDate.of(2106, 2, 7), LocalDate.of(2149, 6, 7)},
            "toString(%s)", String::valueOf),
        stamps("ts7", 7, STAMPS),
        stamps("ts6", 6, STAMPS),
        stamps("ts4", 4, STAMPS),
        stamps("ts3", 3, withLast(STAMPS, LocalDateTime.of(2299, 12, 31, 23, 59, 59, 997_000_000))),
        stamps("ts2", 2, STAMPS),
        stamps("ts0", 0, STAMPS),
        stamps("ts8", 8, withLast(STAMPS, LocalDateTime.of(2299, 12, 31, 23, 59, 59, 999_999_990))),
        // DateTime64(9) ends at 2262-04-11 23:47:16.854775807 in ClickHouse (its ticks are an Int64)
        stamps("ts9", 9, withLast(Arrays.stream(STAMPS).map(t -> t.getYear() > 2262
            ? LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_807) : t).toArray(LocalDateTime[]::new),
            LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1))),
        new Family("g", new UuidType(), new Object[] {new UUID(0, 0), new UUID(-1, -1),
            UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), new UUID(Long.MIN_VALUE, 1),
            new UUID(1, Long.MIN_VALUE), new UUID(0x0123456789ABCDEFL, ~0x0123456789ABCDEFL),
            new UUID(Long.MAX_VALUE, Long.MIN_VALUE), UUID.fromString("ffffffff-0000-4000-8000-00000000ffff"),
            new UUID(7, 0x0A00000000000009L), UUID.fromString("00000000-0000-0000-0000-000000000001")}, "toString(%s)", String::valueOf),
        times("tm7", 7),
        times("tm3", 3),
        times("tm0", 0),
        // rowversion: the unsigned big-endian value, both ends and the sign bit's neighbours
        new Family("rv", new RowVersionType(), longs(0, -1, 1, Long.MAX_VALUE, Long.MIN_VALUE, 0x0000000000000FA1L,
            0x00000000_07D0_0001L, -2, 256, 0x0102030405060708L), "toString(%s)",
            v -> Long.toUnsignedString((Long) v)));

    /** A Time64(n) family: the times cut to n digits, read back by their text with n digits. */
    static Family times(String name, int n) {
        long unit = (long) Math.pow(10, 9 - n);
        Object[] values = Arrays.stream(TIMES).map(t -> t.withNano((int) (t.getNano() / unit * unit))).toArray();
        return new Family(name, new TimeType(n), values, "toString(%s)", v -> {
            LocalTime t = (LocalTime) v;
            String s = t.format(DateTimeFormatter.ofPattern("HH:mm:ss"));
            return n == 0 ? s : s + "." + String.format("%09d", t.getNano()).substring(0, n);
        });
    }

    /** The format under test, with its default settings. */
    abstract ChunkFormat format();

    @TempDir
    static Path dir;
    static ClickHouseEndpoint ch;
    static String db;

    @BeforeAll
    static void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("parquet");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
    }

    @AfterAll
    static void drop() {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
    }

    @Test
    void everyTypeFamilyLoadsExactlyWithNullsAndRequiredColumns() throws Exception {
        List<SourceColumn> columns = new ArrayList<>();
        columns.add(new SourceColumn("id", "bigint", false, new IntegerType(64, false)));
        for (Family f : FAMILIES) {
            columns.add(new SourceColumn(f.name() + "_n", "test", true, f.type()));
            columns.add(new SourceColumn(f.name() + "_r", "test", false, f.type()));
        }
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r <= ROWS; r++) { // row ROWS: NULL in every nullable column
            Object[] row = new Object[columns.size()];
            row[0] = (long) r;
            for (int f = 0; f < FAMILIES.size(); f++) {
                Object[] values = FAMILIES.get(f).values();
                row[1 + 2 * f] = r < ROWS ? values[r] : null;
                row[2 + 2 * f] = values[r < ROWS ? (r * 7 + 3) % ROWS : 0]; // another order than the nullable one
            }
            rows.add(row);
        }
        ChunkFormat format = format();
        Path file = dir.resolve("all-" + getClass().getSimpleName() + "." + format.extension());
        long hash = write(format, file, columns, rows);
        String table = load(format, "alltypes_" + getClass().getSimpleName(), columns, file);

        for (int f = 0; f < FAMILIES.size(); f++) {
            Family fam = FAMILIES.get(f);
            List<String> nullable = column(table, String.format(fam.expr(), "assumeNotNull(" + fam.name() + "_n)"));
            List<String> required = column(table, String.format(fam.expr(), fam.name() + "_r"));
            for (int r = 0; r < ROWS; r++) {
                assertEquals(fam.expected().apply(rows.get(r)[1 + 2 * f]), nullable.get(r), fam.name() + "_n row " + r);
                assertEquals(fam.expected().apply(rows.get(r)[2 + 2 * f]), required.get(r), fam.name() + "_r row " + r);
            }
            assertEquals(fam.expected().apply(rows.get(ROWS)[2 + 2 * f]), required.get(ROWS), fam.name() + "_r");
        }
        String isNull = columns.stream().filter(SourceColumn::nullable).map(c -> "isNull(" + c.name() + ")")
            .collect(Collectors.joining(" + "));
        assertEquals(List.of(List.of(String.valueOf(FAMILIES.size()), "0")), ch.query("SELECT sumIf(" + isNull
            + ", id = " + ROWS + "), sumIf(" + isNull + ", id != " + ROWS + ") FROM " + table));
        assertEquals(Long.toUnsignedString(hash), typedHash(table, columns));
        assertEquals(String.valueOf(ROWS + 1), ch.query("SELECT count() FROM " + table).get(0).get(0));
    }

    @Test
    void anEmptyChunkIsAValidFileThatLoadsNoRows() {
        List<SourceColumn> columns = List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false)),
            new SourceColumn("s", "nvarchar", true, new StringType()));
        ChunkFormat format = format();
        Path empty = dir.resolve("empty-" + getClass().getSimpleName() + "." + format.extension());
        write(format, empty, columns, List.of());
        String table = load(format, "empty_" + getClass().getSimpleName(), columns, empty);
        assertEquals("0", ch.query("SELECT count() FROM " + table).get(0).get(0));
    }

    @Test
    void bytesIsTheSizeOfTheClosedFile() throws Exception {
        List<SourceColumn> columns = List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false)),
            new SourceColumn("s", "nvarchar", true, new StringType()));
        ChunkFormat format = format();
        Path file = dir.resolve("sized-" + getClass().getSimpleName() + "." + format.extension());
        ChunkWriter w = format.open(file, columns);
        ByteBuf buf = new ByteBuf(64);
        RowBinaryEncoder encoder = new RowBinaryEncoder(columns);
        for (int i = 0; i < 1000; i++) {
            Object[] row = {(long) i, i % 3 == 0 ? null : "v" + i};
            buf.reset();
            encoder.encode(row, buf);
            w.write(row, buf);
        }
        w.close();
        assertTrue(w.bytes() > 0);
        assertEquals(Files.size(file), w.bytes());
    }

    @Test
    void aChunkFileIsPrivateAndALinkAtItsNameIsNotFollowed() throws Exception {
        // issue 37: chunks hold rows (0600), and a link planted at a chunk's name never redirects the write
        List<SourceColumn> columns = List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false)));
        ChunkFormat format = format();
        Path victim = Files.writeString(dir.resolve("victim-" + getClass().getSimpleName()), "keep");
        Path file = dir.resolve("linked-" + getClass().getSimpleName() + "." + format.extension());
        Files.createSymbolicLink(file, victim);
        List<Object[]> rows = new java.util.ArrayList<>();
        rows.add(new Object[] {1L});
        write(format, file, columns, rows);
        assertEquals("keep", Files.readString(victim));
        assertTrue(!Files.isSymbolicLink(file) && Files.size(file) > 0);
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(file)));
    }

    // ---- helpers

    /** Writes {@code rows} and returns their typed hash (xxHash64 of each row's RowBinary, summed). */
    static long write(ChunkFormat format, Path file, List<SourceColumn> columns, List<Object[]> rows) {
        RowBinaryEncoder encoder = new RowBinaryEncoder(columns);
        ByteBuf buf = new ByteBuf(1024);
        long hash = 0;
        try (ChunkWriter w = format.open(file, columns)) {
            for (Object[] row : rows) {
                buf.reset();
                encoder.encode(row, buf);
                hash += XXH.hash(buf.array(), 0, buf.length(), 0);
                w.write(row, buf);
            }
        }
        return hash;
    }

    /** Creates a table of the target types and loads {@code file} the way the loader does. */
    static String load(ChunkFormat format, String name, List<SourceColumn> columns, Path file) {
        String table = ClickHouseSql.table(db, name);
        ch.execute("CREATE TABLE " + table + " (" + columns.stream()
            .map(c -> ClickHouseSql.id(c.name()) + " " + c.clickHouseType()).collect(Collectors.joining(", "))
            + ") ENGINE = MergeTree ORDER BY id");
        String select = columns.stream().map(format::readExpression).collect(Collectors.joining(", "));
        ch.insertFile(new ClickHouseEndpoint.InsertFile(table,
            ClickHouseSql.idList(columns.stream().map(SourceColumn::name).toList()), select, file,
            format.clickHouseFormat(), format.structure(columns), format.insertSettings()));
        return table;
    }

    /**
     * The table side of the typed hash. {@code formatRow}, not {@code formatRowNoNewline}: the latter drops a row's
     * last byte when it is 0x0A, which RowBinary rows end with whenever their last value does (a UInt8 10, a UUID
     * or text ending in that byte); one row in 256 of the random UUIDs in the large test does.
     */
    static String typedHash(String table, List<SourceColumn> columns) {
        return ch.query("SELECT sum(xxHash64(formatRow('RowBinary', "
            + ClickHouseSql.idList(columns.stream().map(SourceColumn::name).toList()) + "))) FROM " + table)
            .get(0).get(0);
    }

    static List<String> column(String table, String expr) {
        return ch.query("SELECT " + expr + " FROM " + table + " ORDER BY id").stream().map(r -> r.get(0)).toList();
    }

    static Object[] longs(long... v) {
        return Arrays.stream(v).boxed().toArray();
    }

    static Object[] decimals(int scale, String... v) {
        return Arrays.stream(v).map(s -> new BigDecimal(s).setScale(scale)).toArray();
    }

    static String plain(Object v) {
        return ((BigDecimal) v).stripTrailingZeros().toPlainString();
    }

    static String hex(byte[] b) {
        return HexFormat.of().withUpperCase().formatHex(b);
    }

    static byte[] filled(int n, int b) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) b);
        return a;
    }

    static LocalDateTime[] withLast(LocalDateTime[] stamps, LocalDateTime last) {
        LocalDateTime[] out = stamps.clone();
        out[out.length - 1] = last;
        return out;
    }

    /** A DateTime64(n) family: the stamps cut to n digits, read back by their text with n digits. */
    static Family stamps(String name, int n, LocalDateTime[] stamps) {
        long unit = (long) Math.pow(10, 9 - n);
        Object[] values = Arrays.stream(stamps).map(t -> t.withNano((int) (t.getNano() / unit * unit))).toArray();
        return new Family(name, new TimestampType(n, false), values, "toString(%s)", v -> {
            LocalDateTime t = (LocalDateTime) v;
            String s = t.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
            return n == 0 ? s : s + "." + String.format("%09d", t.getNano()).substring(0, n);
        });
    }
}
