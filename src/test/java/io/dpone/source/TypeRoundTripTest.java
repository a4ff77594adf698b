package io.dpone.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every mapped SQL Server type makes the trip into the embedded ClickHouse exactly: values are read back by their
 * bits (floats), unscaled digits (decimals), UTF-8 bytes (text), ticks (timestamps) and compared with the source.
 */
@io.dpone.testing.EngineTest
public class TypeRoundTripTest {
    static final String[] TEXTS = {"", "ascii", "tab\tnew\nline\r\\back", "Ünïcödé", "李小龍", "😀🙏🏽👩‍👩‍👧",
        "\u0000nul", "'quote\"", "मानक", "x".repeat(5000)};
    static final double[] DOUBLES = {0.0, -0.0, Double.MIN_VALUE, -Double.MAX_VALUE, 0.1 + 0.2, Math.PI, 1e-300,
        123456789.123456789, -1.0 / 3, 4.9e-324};
    static final float[] FLOATS = {0f, -0f, Float.MIN_VALUE, Float.MAX_VALUE, 0.1f, -1f / 3, 1.17549435E-38f,
        16777217f, 3.4e38f, 1e-45f};
    static final String[] DEC18 = {"0.0000", "99999999999999.9999", "-99999999999999.9999", "0.0001", "-0.0001",
        "12345.6789", "1.0000", "-1.0000", "314159.2653", "0.5000"};
    static final String[] DEC38 = {"0.0000000000", "9999999999999999999999999999.9999999999",
        "-9999999999999999999999999999.9999999999", "0.0000000001", "-0.0000000001", "1.2345678901",
        "170141183460469231731.6873037158", "-1.0000000000", "42.0000000000", "0.1000000000"};
    static final LocalDateTime[] STAMPS = {LocalDateTime.of(1900, 1, 1, 0, 0),
        LocalDateTime.of(2299, 12, 31, 23, 59, 59, 999_999_900), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_900),
        LocalDateTime.of(1970, 1, 1, 0, 0, 0, 100), LocalDateTime.of(2024, 2, 29, 12, 0, 0, 123_456_700),
        LocalDateTime.of(2000, 1, 1, 0, 0), LocalDateTime.of(1999, 12, 31, 23, 59, 59),
        LocalDateTime.of(2038, 1, 19, 3, 14, 8), LocalDateTime.of(2100, 6, 15, 8, 30, 0, 500_000_000),
        LocalDateTime.of(1950, 3, 3, 3, 3, 3, 300)};
    static final LocalDate[] DATES = {LocalDate.of(1900, 1, 1), LocalDate.of(2299, 12, 31),
        LocalDate.of(1969, 12, 31), LocalDate.of(1970, 1, 1), LocalDate.of(2024, 2, 29), LocalDate.of(2000, 1, 1),
        LocalDate.of(1901, 12, 13), LocalDate.of(2038, 1, 19), LocalDate.of(2106, 2, 7), LocalDate.of(1950, 3, 3)};
    static final int ROWS = 10;

    @TempDir
    static Path dir;
    static String db;
    static ClickHouseEndpoint ch;
    static RunReport report;
    static String h2;

    @BeforeAll
    static void load() throws Exception {
        h2 = TestEngines.newH2Url();
        db = TestEngines.newDatabase("types");
        try (Connection c = DriverManager.getConnection(h2, "sa", "")) {
            createAllTypes(c);
        }
        Path manifest = Manifests.fullRefresh(dir, "alltypes", db, null);
        report = Dpone.run(manifest, "types-1", TestEngines.context(h2), ProgressListener.NONE, dir);
        ch = TestEngines.clickhouse();
    }

    /** Creates and fills {@code dbo.alltypes}: every mapped type, edge values, and a row of NULLs (id 99). */
    public static void createAllTypes(Connection c) throws java.sql.SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            st.execute("CREATE TABLE dbo.alltypes (id BIGINT NOT NULL PRIMARY KEY, i8 TINYINT, i16 SMALLINT, "
                + "i32 INT, i64 BIGINT, b BIT, d18 DECIMAL(18,4), d38 DECIMAL(38,10), f64 FLOAT, f32 REAL, "
                + "nv NVARCHAR(MAX), v VARCHAR(8000), dt DATE, ts DATETIME2(7), g UNIQUEIDENTIFIER, bin VARBINARY(64))");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo.alltypes (id) VALUES (99)")) {
                ps.execute();
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO dbo.alltypes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
                for (int r = 0; r < ROWS; r++) {
                    ps.setLong(1, r);
                    ps.setObject(2, (byte) (r * 12), java.sql.Types.TINYINT);
                    ps.setShort(3, (short) (r % 2 == 0 ? Short.MIN_VALUE + r : Short.MAX_VALUE - r));
                    ps.setInt(4, r % 2 == 0 ? Integer.MIN_VALUE + r : Integer.MAX_VALUE - r);
                    ps.setLong(5, r % 2 == 0 ? Long.MIN_VALUE + r : Long.MAX_VALUE - r);
                    ps.setBoolean(6, r % 3 == 0);
                    ps.setBigDecimal(7, new BigDecimal(DEC18[r]));
                    ps.setBigDecimal(8, new BigDecimal(DEC38[r]));
                    ps.setDouble(9, DOUBLES[r]);
                    ps.setFloat(10, FLOATS[r]);
                    ps.setString(11, TEXTS[r]);
                    ps.setString(12, TEXTS[(r + 1) % ROWS].replaceAll("[^\\x00-\\x7F]", "?"));
                    ps.setObject(13, DATES[r]);
                    ps.setObject(14, STAMPS[r]);
                    ps.setString(15, new UUID(r * 0x0123456789ABCDEFL, ~r).toString());
                    ps.setBytes(16, new byte[] {(byte) r, 0, (byte) 0xFF, (byte) 0x80});
                    ps.execute();
                }
            }
        }
    }

    @AfterAll
    static void drop() {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
    }

    private static List<String> column(String expr) {
        List<String> out = new ArrayList<>();
        for (List<String> row : ch.query("SELECT " + expr + " FROM " + ClickHouseSql.table(db, "alltypes")
                + " WHERE id < 99 ORDER BY id")) {
            out.add(row.get(0));
        }
        return out;
    }

    @Test
    void runPassesEveryGate() {
        assertTrue(report.passed(), () -> report.blockers().toString());
        assertEquals(ROWS + 1, report.loadedRows());
    }

    @Test
    void columnTypesAreTheExactMappings() {
        List<List<String>> types = ch.query("SELECT name, type FROM system.columns WHERE database = "
            + ClickHouseSql.literal(db) + " AND table = 'alltypes' AND name NOT LIKE '\\_\\_dpone%' ORDER BY position");
        assertEquals(List.of(List.of("id", "Int64"), List.of("i8", "Nullable(UInt8)"), List.of("i16", "Nullable(Int16)"),
            List.of("i32", "Nullable(Int32)"), List.of("i64", "Nullable(Int64)"), List.of("b", "Nullable(Bool)"),
            List.of("d18", "Nullable(Decimal(18, 4))"), List.of("d38", "Nullable(Decimal(38, 10))"),
            List.of("f64", "Nullable(Float64)"), List.of("f32", "Nullable(Float32)"), List.of("nv", "Nullable(String)"),
            List.of("v", "Nullable(String)"), List.of("dt", "Nullable(Date32)"),
            List.of("ts", "Nullable(DateTime64(7, 'UTC'))"), List.of("g", "Nullable(UUID)"),
            List.of("bin", "Nullable(String)")), types);
    }

    @Test
    void floatsKeepEveryBitTheSourceHolds() throws Exception {
        List<String> f64 = column("reinterpretAsUInt64(assumeNotNull(f64))");
        List<String> f32 = column("reinterpretAsUInt32(assumeNotNull(f32))");
        // compared with what the source returns: H2 (like SQL Server) stores -0.0 as 0.0
        try (Connection c = DriverManager.getConnection(h2, "sa", "");
             var rs = c.createStatement().executeQuery("SELECT f64, f32 FROM dbo.alltypes WHERE id < 99 ORDER BY id")) {
            for (int r = 0; r < ROWS; r++) {
                assertTrue(rs.next());
                assertEquals(Long.toUnsignedString(Double.doubleToRawLongBits(rs.getDouble(1))), f64.get(r), "f64 " + r);
                assertEquals(Integer.toUnsignedString(Float.floatToRawIntBits(rs.getFloat(2))), f32.get(r), "f32 " + r);
            }
        }
        assertEquals(Long.toUnsignedString(Double.doubleToRawLongBits(Double.MIN_VALUE)), f64.get(2));
        assertEquals(Long.toUnsignedString(Double.doubleToRawLongBits(0.1 + 0.2)), f64.get(4));
    }

    @Test
    void decimalsKeepPrecisionAndScale() {
        List<String> d18 = column("toString(d18)");
        List<String> d38 = column("toString(d38)");
        for (int r = 0; r < ROWS; r++) {
            assertEquals(0, new BigDecimal(DEC18[r]).compareTo(new BigDecimal(d18.get(r))), "d18 row " + r);
            assertEquals(0, new BigDecimal(DEC38[r]).compareTo(new BigDecimal(d38.get(r))), "d38 row " + r);
        }
    }

    @Test
    void textKeepsEveryCodePointAndByte() {
        List<String> nv = column("hex(assumeNotNull(nv))");
        List<String> bin = column("hex(assumeNotNull(bin))");
        for (int r = 0; r < ROWS; r++) {
            assertEquals(HexFormat.of().withUpperCase().formatHex(TEXTS[r].getBytes(StandardCharsets.UTF_8)), nv.get(r));
            assertEquals(HexFormat.of().withUpperCase().formatHex(new byte[] {(byte) r, 0, (byte) 0xFF, (byte) 0x80}),
                bin.get(r));
        }
    }

    @Test
    void timestampsKeep100NanosecondTicksAndDatesTheirDay() {
        List<String> ts = column("toString(ts)");
        List<String> dt = column("toString(dt)");
        for (int r = 0; r < ROWS; r++) {
            String expected = STAMPS[r].format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")) + "."
                + String.format("%07d", STAMPS[r].getNano() / 100);
            assertEquals(expected, ts.get(r), "ts row " + r);
            assertEquals(DATES[r].toString(), dt.get(r));
        }
    }

    @Test
    void integersUuidsAndBitsRoundTrip() {
        List<String> i64 = column("toString(i64)");
        List<String> i16 = column("toString(i16)");
        List<String> g = column("toString(g)");
        List<String> b = column("toString(b)");
        for (int r = 0; r < ROWS; r++) {
            assertEquals(Long.toString(r % 2 == 0 ? Long.MIN_VALUE + r : Long.MAX_VALUE - r), i64.get(r));
            assertEquals(Short.toString((short) (r % 2 == 0 ? Short.MIN_VALUE + r : Short.MAX_VALUE - r)), i16.get(r));
            assertEquals(new UUID(r * 0x0123456789ABCDEFL, ~r).toString(), g.get(r));
            assertEquals(r % 3 == 0 ? "true" : "false", b.get(r));
        }
    }

    @Test
    void nullStaysNullInEveryNullableColumn() {
        List<String> row = ch.query("SELECT i8, i16, i32, i64, b, d18, d38, f64, f32, nv, v, dt, ts, g, bin FROM "
            + ClickHouseSql.table(db, "alltypes") + " WHERE id = 99").get(0);
        assertEquals(15, row.size());
        row.forEach(v -> assertEquals(null, v));
    }
}
