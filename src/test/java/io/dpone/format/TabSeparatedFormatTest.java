package io.dpone.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoint.InsertFile;
import io.dpone.clickhouse.ClickHouseSql;
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
import io.dpone.source.types.ValueOutOfRangeException;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TabSeparated chunks load into ClickHouse exactly: every type family with its edge values is read back by bits
 * (floats), UTF-8 bytes (text, binary), digits (decimals) and text (timestamps, dates, UUIDs), and the table's typed
 * hash equals the sum of xxHash64 over the RowBinary bytes of the rows that were written.
 */
@io.dpone.testing.EngineTest
class TabSeparatedFormatTest {
    private static final TabSeparatedFormat FORMAT = new TabSeparatedFormat();
    private static final XXHash64 XXH = XXHashFactory.fastestInstance().hash64();
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    static final String ALL_ASCII;
    static final byte[] ALL_BYTES = new byte[256];

    static {
        StringBuilder sb = new StringBuilder();
        for (char c = 0; c < 128; c++) {
            sb.append(c);
        }
        ALL_ASCII = sb.toString();
        for (int i = 0; i < 256; i++) {
            ALL_BYTES[i] = (byte) i;
        }
    }

    static final long[] I8 = {0, 255, 1, 127, 128, 92, 9, 10};
    static final long[] I16 = {Short.MIN_VALUE, Short.MAX_VALUE, 0, -1, 1};
    static final long[] I32 = {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1, 1_000_000_000};
    static final long[] I64 = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
        -1_000_000_000_000_000_000L};
    static final String[] D9 = {"0.00", "9999999.99", "-9999999.99", "0.01", "-0.01", "12.50"};
    static final String[] D18 = {"0.0000", "99999999999999.9999", "-99999999999999.9999", "0.0001", "-0.0001",
        "12345.6789", "1.0000", "-1.0000", "314159.2653", "0.5000"};
    static final String[] D38 = {"0.0000000000", "9999999999999999999999999999.9999999999",
        "-9999999999999999999999999999.9999999999", "0.0000000001", "-0.0000000001", "1.2345678901",
        "170141183460469231731.6873037158", "-1.0000000000", "42.0000000000", "99999999.9999999999",
        "-100000000.0000000000", "-170141183460469231731.6873037158"};
    static final double[] F64 = {0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, 4.9e-324 * 3, Double.MAX_VALUE,
        -Double.MAX_VALUE, 0.1 + 0.2, 1e-300, Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL),
        -1.2608882594667528e146, 9.999999999999999E22, Math.PI, -1.0 / 3, 123456789.123456789,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1e23, 2e-323,
        Double.longBitsToDouble(0xfff8000000000000L)};
    static final float[] F32 = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE,
        1f / 3, 16777217f, 0.1f, Float.MIN_NORMAL, Math.nextDown(Float.MIN_NORMAL), 1e-45f, 3.4e38f,
        1.17549435E-38f, Float.POSITIVE_INFINITY, Float.NaN, 7.0E-45f, Float.intBitsToFloat(0xffc00000)};
    static final String[] TEXTS = {"", "s", "\\N", "\\N not null", "back\\slash\\", "tab\there\t", "line\nbreak\n",
        "cr\rlf\r\n", "\0nul\0", "\b\f", "😀🙏🏽👩‍👩‍👧", "李小龍", "Ünïcödé мир मानक", "x".repeat(5000), ALL_ASCII, "\\",
        "\\\\N", "\\t literal", "N", "\t", "\n", "quote'\"", "\uFFFF\u0800\u07FF\u0080", "\uDBFF\uDFFF"};
    static final LocalDate[] DATES = {DateType.MIN, DateType.MAX, LocalDate.of(1969, 12, 31),
        LocalDate.of(1970, 1, 1), LocalDate.of(2024, 2, 29), LocalDate.of(2000, 1, 1), LocalDate.of(2106, 2, 7),
        LocalDate.of(1901, 12, 13)};
    static final LocalDateTime[] TS7 = {LocalDateTime.of(1900, 1, 1, 0, 0),
        LocalDateTime.of(2299, 12, 31, 23, 59, 59, 999_999_900), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_900),
        LocalDateTime.of(1970, 1, 1, 0, 0, 0, 100), LocalDateTime.of(2024, 2, 29, 12, 0, 0, 123_456_700),
        LocalDateTime.of(1900, 1, 1, 0, 0, 0, 100), LocalDateTime.of(2038, 1, 19, 3, 14, 8),
        LocalDateTime.of(2100, 6, 15, 8, 30, 0, 500_000_000), LocalDateTime.of(1950, 3, 3, 3, 3, 3, 300)};
    static final LocalDateTime[] TS0 = {LocalDateTime.of(1900, 1, 1, 0, 0), LocalDateTime.of(2299, 12, 31, 23, 59, 59),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59), LocalDateTime.of(1970, 1, 1, 0, 0, 1)};
    static final LocalDateTime[] TS3 = {LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1_000_000),
        LocalDateTime.of(2299, 12, 31, 23, 59, 59, 999_000_000), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
        LocalDateTime.of(2000, 2, 29, 0, 0)};
    static final UUID[] UUIDS = {new UUID(0, 0), new UUID(-1, -1), UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
        new UUID(Long.MIN_VALUE, 1), new UUID(0x0123456789ABCDEFL, 0xFEDCBA9876543210L)};
    static final byte[][] BINS = {{0x00, (byte) 0xFF, 0x5C, 0x09}, {}, ALL_BYTES, {0x5C, 'N'}, {0x0A, 0x0D},
        {(byte) 0x80}, {'\\', '\\', 'N'}};

    static final List<SourceColumn> COLUMNS = List.of(
        col("id", false, new IntegerType(64, false)),
        col("i8", true, new IntegerType(8, true)),
        col("i16", true, new IntegerType(16, false)),
        col("i32", true, new IntegerType(32, false)),
        col("i64", true, new IntegerType(64, false)),
        col("b", true, new BoolType()),
        col("d9", true, new DecimalType(9, 2)),
        col("d18", true, new DecimalType(18, 4)),
        col("d38", true, new DecimalType(38, 10)),
        col("f64", true, new FloatType(64)),
        col("f32", true, new FloatType(32)),
        col("f64n", false, new FloatType(64)),
        col("s", true, new StringType()),
        col("sn", false, new StringType()),
        col("dt", true, new DateType()),
        col("ts7", true, new TimestampType(7, false)),
        col("ts0", true, new TimestampType(0, false)),
        col("ts3", true, new TimestampType(3, true)),
        col("g", true, new UuidType()),
        col("bin", true, new BinaryType()));
    static final int ROWS = 24;

    @TempDir
    static Path dir;
    static String db;
    static ClickHouseEndpoint ch;
    static List<Object[]> rows;
    static long writtenBytes;
    static Path chunk;

    private static SourceColumn col(String name, boolean nullable, ColumnType type) {
        return new SourceColumn(name, "test", nullable, type);
    }

    private static Object value(String column, int r) {
        return switch (column) {
            case "id" -> (long) r;
            case "i8" -> I8[r % I8.length];
            case "i16" -> I16[r % I16.length];
            case "i32" -> I32[r % I32.length];
            case "i64" -> I64[r % I64.length];
            case "b" -> r % 3 == 0;
            case "d9" -> new BigDecimal(D9[r % D9.length]);
            case "d18" -> new BigDecimal(D18[r % D18.length]);
            case "d38" -> new BigDecimal(D38[r % D38.length]);
            case "f64", "f64n" -> F64[(column.equals("f64") ? r : r + 7) % F64.length];
            case "f32" -> F32[r % F32.length];
            case "s" -> TEXTS[r % TEXTS.length];
            case "sn" -> r == 0 ? "sn" : TEXTS[(r + 5) % TEXTS.length];
            case "dt" -> DATES[r % DATES.length];
            case "ts7" -> TS7[r % TS7.length];
            case "ts0" -> TS0[r % TS0.length];
            case "ts3" -> TS3[r % TS3.length];
            case "g" -> UUIDS[r % UUIDS.length];
            case "bin" -> BINS[r % BINS.length];
            default -> throw new IllegalArgumentException(column);
        };
    }

    @BeforeAll
    static void writeAndLoad() throws Exception {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("tsv");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        rows = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            Object[] row = new Object[COLUMNS.size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = value(COLUMNS.get(c).name(), r);
            }
            rows.add(row);
        }
        Object[] nulls = new Object[COLUMNS.size()]; // NULL in every nullable column
        for (int c = 0; c < nulls.length; c++) {
            nulls[c] = COLUMNS.get(c).nullable() ? null : value(COLUMNS.get(c).name(), ROWS);
        }
        rows.add(nulls);
        Object[] empties = rows.get(0).clone(); // empty string and empty bytes, next to NULL
        empties[0] = (long) ROWS + 1;
        empties[index("s")] = "";
        empties[index("sn")] = "";
        empties[index("bin")] = new byte[0];
        rows.add(empties);

        chunk = dir.resolve("chunk-000000." + FORMAT.extension());
        writtenBytes = write(chunk, COLUMNS, rows);
        createTable("t", COLUMNS);
        load("t", COLUMNS, chunk, FORMAT.insertSettings(), true);
    }

    @AfterAll
    static void drop() {
        if (ch != null) {
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            ch.close();
        }
    }

    private static int index(String name) {
        for (int i = 0; i < COLUMNS.size(); i++) {
            if (COLUMNS.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    static long write(Path file, List<SourceColumn> columns, List<Object[]> data) {
        RowBinaryEncoder encoder = new RowBinaryEncoder(columns);
        ByteBuf rb = new ByteBuf(1024);
        try (ChunkWriter w = FORMAT.open(file, columns)) {
            for (Object[] row : data) {
                rb.reset();
                encoder.encode(row, rb);
                w.write(row, rb);
            }
            w.close();
            return w.bytes();
        }
    }

    static void createTable(String table, List<SourceColumn> columns) {
        ch.execute("CREATE TABLE " + ClickHouseSql.table(db, table) + " ("
            + columns.stream().map(c -> ClickHouseSql.id(c.name()) + " " + c.clickHouseType())
                .collect(Collectors.joining(", "))
            + ") ENGINE = MergeTree ORDER BY " + ClickHouseSql.id(columns.get(0).name()));
    }

    /** Loads as the runtime does; {@code asFormat} false reads every column directly as its target type. */
    static void load(String table, List<SourceColumn> columns, Path file, String settings, boolean asFormat) {
        String select = asFormat
            ? columns.stream().map(FORMAT::readExpression).collect(Collectors.joining(", "))
            : ClickHouseSql.idList(columns.stream().map(SourceColumn::name).toList());
        String structure = asFormat ? FORMAT.structure(columns)
            : columns.stream().map(c -> ClickHouseSql.id(c.name()) + " " + c.clickHouseType())
                .collect(Collectors.joining(", "));
        ch.insertFile(new InsertFile(ClickHouseSql.table(db, table),
            ClickHouseSql.idList(columns.stream().map(SourceColumn::name).toList()), select, file,
            FORMAT.clickHouseFormat(), structure, settings));
    }

    /** Column {@code name} of table t by id; {@code expr} is applied to the non-NULL value. */
    private static List<String> column(String name, String expr) {
        String id = ClickHouseSql.id(name);
        String value = expr.replace("X", "assumeNotNull(" + id + ")");
        List<String> out = new ArrayList<>();
        for (List<String> row : ch.query("SELECT if(isNull(" + id + "), NULL, toString(" + value + ")) FROM "
                + ClickHouseSql.table(db, "t") + " ORDER BY id")) {
            out.add(row.get(0));
        }
        return out;
    }

    private static void assertColumn(String name, String expr, Function<Object, String> expected) {
        List<String> got = column(name, expr);
        assertEquals(rows.size(), got.size(), name);
        int c = index(name);
        for (int r = 0; r < rows.size(); r++) {
            Object v = rows.get(r)[c];
            assertEquals(v == null ? null : expected.apply(v), got.get(r), name + " row " + r);
        }
    }

    @Test
    void everyRowLandsAndBytesAreTheFileSize() throws Exception {
        assertEquals(String.valueOf(rows.size()), ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "t")).get(0).get(0));
        assertEquals(Files.size(chunk), writtenBytes);
        assertEquals("TabSeparated", FORMAT.clickHouseFormat());
        assertEquals("tsv", FORMAT.extension());
        assertEquals(TabSeparatedFormat.INSERT_SETTINGS, FORMAT.insertSettings());
    }

    @Test
    void integersAndBoolsRoundTrip() {
        for (String c : List.of("id", "i8", "i16", "i32", "i64")) {
            assertColumn(c, "X", v -> Long.toString((Long) v));
        }
        assertColumn("b", "X", v -> v.toString());
    }

    @Test
    void decimalsKeepEveryDigitAtTheirScale() {
        for (String c : List.of("d9", "d18", "d38")) {
            int scale = ((DecimalType) COLUMNS.get(index(c)).type()).scale();
            List<String> got = column(c, "X");
            for (int r = 0; r < rows.size(); r++) {
                BigDecimal v = (BigDecimal) rows.get(r)[index(c)];
                if (v == null) {
                    assertNull(got.get(r));
                } else {
                    assertEquals(v, new BigDecimal(got.get(r)).setScale(scale), c + " row " + r);
                }
            }
        }
    }

    @Test
    void floatsKeepEveryBit() {
        assertColumn("f64", "reinterpretAsUInt64(X)", v -> Long.toUnsignedString(Double.doubleToRawLongBits((Double) v)));
        assertColumn("f64n", "reinterpretAsUInt64(X)", v -> Long.toUnsignedString(Double.doubleToRawLongBits((Double) v)));
        assertColumn("f32", "reinterpretAsUInt32(X)", v -> Integer.toUnsignedString(Float.floatToRawIntBits((Float) v)));
    }

    @Test
    void textAndBytesKeepEveryByte() {
        assertColumn("s", "hex(X)", v -> HEX.formatHex(((String) v).getBytes(StandardCharsets.UTF_8)));
        assertColumn("sn", "hex(X)", v -> HEX.formatHex(((String) v).getBytes(StandardCharsets.UTF_8)));
        assertColumn("bin", "hex(X)", v -> HEX.formatHex((byte[]) v));
    }

    @Test
    void datesTimestampsAndUuidsRoundTrip() {
        assertColumn("dt", "X", Object::toString);
        DateTimeFormatter seconds = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
        assertColumn("ts7", "X", v -> ((LocalDateTime) v).format(seconds) + "."
            + String.format("%07d", ((LocalDateTime) v).getNano() / 100));
        assertColumn("ts3", "X", v -> ((LocalDateTime) v).format(seconds) + "."
            + String.format("%03d", ((LocalDateTime) v).getNano() / 1_000_000));
        assertColumn("ts0", "X", v -> ((LocalDateTime) v).format(seconds));
        assertColumn("ts7", "reinterpretAsInt64(X)",
            v -> Long.toString(((TimestampType) COLUMNS.get(index("ts7")).type()).ticks((LocalDateTime) v)));
        assertColumn("g", "X", Object::toString);
    }

    @Test
    void typedHashOfTheTableEqualsTheHashOfTheWrittenRows() {
        RowBinaryEncoder encoder = new RowBinaryEncoder(COLUMNS);
        ByteBuf rb = new ByteBuf(1024);
        long expected = 0;
        for (Object[] row : rows) {
            rb.reset();
            encoder.encode(row, rb);
            expected += XXH.hash(rb.array(), 0, rb.length(), 0);
        }
        String cols = ClickHouseSql.idList(COLUMNS.stream().map(SourceColumn::name).toList());
        List<String> got = ch.query("SELECT toString(sum(xxHash64(formatRowNoNewline('RowBinary', " + cols + ")))), "
            + "count() FROM " + ClickHouseSql.table(db, "t")).get(0);
        assertEquals(Long.toUnsignedString(expected), got.get(0));
        assertEquals(String.valueOf(rows.size()), got.get(1));
    }

    @Test
    void exactEncodedBytes() throws Exception {
        List<SourceColumn> cols = List.of(col("a", true, new StringType()), col("b", true, new BinaryType()),
            col("c", true, new IntegerType(64, false)), col("d", true, new DecimalType(38, 3)),
            col("e", true, new TimestampType(7, false)), col("f", false, new FloatType(64)),
            col("g", false, new BoolType()));
        Path file = dir.resolve("golden.tsv");
        long n = write(file, cols, List.of(
            new Object[] {"a\tb\\N\n\r\0\b\fé😀", new byte[] {0, (byte) 0xFF, 0x5C, 0x09}, Long.MIN_VALUE,
                new BigDecimal("-0.001"), LocalDateTime.of(1900, 1, 1, 0, 0, 0, 100), 1e-300, true},
            new Object[] {null, null, null, null, null, -0.0, false}));
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        expected.write("a\\tb\\\\N\\n\\r\\0\\b\\fé😀\t".getBytes(StandardCharsets.UTF_8));
        expected.write(new byte[] {'\\', '0', (byte) 0xFF, '\\', '\\', '\\', 't'}); // 0x00 0xFF(raw) 0x5C 0x09
        expected.write(("\t-9223372036854775808\t-0.001\t1900-01-01 00:00:00.0000001\t1.0E-300\ttrue\n"
            + "\\N\t\\N\t\\N\t\\N\t\\N\t-0.0\tfalse\n").getBytes(StandardCharsets.UTF_8));
        byte[] got = Files.readAllBytes(file);
        assertArrayEquals(expected.toByteArray(), got);
        assertEquals(got.length, n);
    }

    @Test
    void unpairedSurrogatesAreRefusedAndTheRowIsNotWritten() throws Exception {
        List<SourceColumn> cols = List.of(col("id", false, new IntegerType(64, false)), col("s", true, new StringType()));
        Path file = dir.resolve("surrogate.tsv");
        try (ChunkWriter w = FORMAT.open(file, cols)) {
            for (String bad : List.of("\uD800", "x\uDC00y", "end\uD83D", "\uDE00\uD83D")) {
                assertThrows(ValueOutOfRangeException.class, () -> w.write(new Object[] {1L, bad}, null));
            }
            w.write(new Object[] {2L, "ok 😀"}, null);
            w.close();
            assertEquals(Files.size(file), w.bytes());
        }
        assertEquals("2\tok 😀\n", Files.readString(file));
    }

    @Test
    void valuesTheTextCannotCarryAreRefused() {
        List<SourceColumn> cols = List.of(col("f", true, new FloatType(64)), col("g", true, new FloatType(32)),
            col("d", true, new DecimalType(18, 2)), col("i", true, new IntegerType(8, true)),
            col("n", false, new StringType()));
        Path file = dir.resolve("refused.tsv");
        try (ChunkWriter w = FORMAT.open(file, cols)) {
            Object[][] bad = {
                {Double.longBitsToDouble(0x7ff0000000000001L), null, null, null, ""}, // NaN with a payload
                {null, Float.intBitsToFloat(0x7fc00001), null, null, ""},
                {null, null, new BigDecimal("1.005"), null, ""}, // would need rounding
                {null, null, new BigDecimal("12345678901234567.00"), null, ""}, // exceeds precision 18
                {null, null, null, 256L, ""}};
            for (Object[] row : bad) {
                assertThrows(ValueOutOfRangeException.class, () -> w.write(row, null));
            }
            assertThrows(IllegalStateException.class, () -> w.write(new Object[] {null, null, null, null, null}, null));
            w.write(new Object[] {Double.NaN, -Float.NaN, new BigDecimal("1.5"), 255L, "x"}, null);
            w.close();
        }
    }

    /**
     * ClickHouse's input formats parse floats with a fast algorithm whatever {@code precise_float_parsing} says
     * (off by one ulp for about a quarter of random doubles; subnormals flushed to zero), so reading a float column
     * directly loses bits with or without the setting. The format reads floats as text and converts with
     * {@code toFloat64}/{@code toFloat32}, which are exact only with {@code precise_float_parsing = 1}.
     */
    @Test
    void floatsNeedTextColumnsAndPreciseParsing() throws Exception {
        List<SourceColumn> cols = List.of(col("id", false, new IntegerType(64, false)),
            col("x", false, new FloatType(64)), col("y", true, new FloatType(32)));
        SplittableRandom random = new SplittableRandom(20240229);
        List<Object[]> data = new ArrayList<>();
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            double x;
            float y;
            if (i < F64.length || i < F32.length) {
                x = F64[i % F64.length];
                y = F32[i % F32.length];
            } else {
                switch (i % 4) {
                    case 0 -> {
                        x = Double.longBitsToDouble(random.nextLong());
                        y = Float.intBitsToFloat(random.nextInt());
                    }
                    case 1 -> { // demo-like prices
                        x = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-8, 12));
                        y = (float) ((random.nextDouble() - 0.3) * 100);
                    }
                    case 2 -> { // subnormals
                        x = Double.longBitsToDouble(random.nextLong(1, 1L << 52));
                        y = Float.intBitsToFloat(random.nextInt(1, 1 << 23));
                    }
                    default -> {
                        x = random.nextDouble();
                        y = random.nextFloat();
                    }
                }
                x = Double.isNaN(x) ? 1.5 : x;
                y = Float.isNaN(y) ? 2.5f : y;
            }
            data.add(new Object[] {(long) i, x, y});
        }
        Path file = dir.resolve("floats.tsv");
        write(file, cols, data);

        String onlyHeader = "input_format_tsv_detect_header = 0";
        assertTrue(mismatches(cols, data, file, "direct", onlyHeader, false) > n / 10,
            "the input format's own float parser is expected to be inexact");
        assertTrue(mismatches(cols, data, file, "direct_precise", TabSeparatedFormat.INSERT_SETTINGS, false) > n / 10,
            "precise_float_parsing is expected not to reach the input format's float parser");
        assertTrue(mismatches(cols, data, file, "text_fast", onlyHeader, true) > n / 10,
            "toFloat64 without precise_float_parsing is expected to be inexact");
        assertEquals(0, mismatches(cols, data, file, "text_precise", TabSeparatedFormat.INSERT_SETTINGS, true));
    }

    private static long mismatches(List<SourceColumn> cols, List<Object[]> data, Path file, String table,
                                   String settings, boolean asFormat) {
        createTable(table, cols);
        load(table, cols, file, settings, asFormat);
        List<List<String>> got = ch.query("SELECT toString(reinterpretAsUInt64(x)), "
            + "toString(reinterpretAsUInt32(assumeNotNull(y))) FROM " + ClickHouseSql.table(db, table) + " ORDER BY id");
        assertEquals(data.size(), got.size());
        long bad = 0;
        for (int i = 0; i < data.size(); i++) {
            String x = Long.toUnsignedString(Double.doubleToRawLongBits((Double) data.get(i)[1]));
            String y = Integer.toUnsignedString(Float.floatToRawIntBits((Float) data.get(i)[2]));
            if (!x.equals(got.get(i).get(0)) || !y.equals(got.get(i).get(1))) {
                bad++;
            }
        }
        return bad;
    }

    /** Without input_format_tsv_detect_header = 0 ClickHouse drops a first row that reads like the column names. */
    @Test
    void aFirstRowEqualToTheColumnNamesIsKept() throws Exception {
        List<SourceColumn> cols = List.of(col("a", false, new StringType()), col("b", true, new StringType()));
        Path file = dir.resolve("header.tsv");
        write(file, cols, List.of(new Object[] {"a", "b"}, new Object[] {"x", "y"}));
        createTable("hdr_default", cols);
        load("hdr_default", cols, file, "precise_float_parsing = 1", true);
        assertEquals("1", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "hdr_default")).get(0).get(0));
        createTable("hdr", cols);
        load("hdr", cols, file, TabSeparatedFormat.INSERT_SETTINGS, true);
        assertEquals(List.of(List.of("a", "b"), List.of("x", "y")),
            ch.query("SELECT a, b FROM " + ClickHouseSql.table(db, "hdr") + " ORDER BY a"));
    }
}
