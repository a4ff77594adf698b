package io.dpone.testing.mssql.tds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.mssql.engine.ResultColumn;
import io.dpone.testing.mssql.engine.SqlType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real mssql-jdbc against the twin's wire (a fake engine behind it): types, NULLs, params, errors, TLS, cancel. */
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
@io.dpone.testing.EngineTest
class TdsWireTest {
    static final String PASSWORD = "wire-" + UUID.randomUUID();
    static final AtomicInteger DROP_AFTER = new AtomicInteger(-1);
    static TdsServer server;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        WireFaults faults = new WireFaults() {
            @Override
            public int dropAfterRows() {
                return DROP_AFTER.get();
            }

            @Override
            public int takeDropAfterRows() {
                return DROP_AFTER.getAndSet(-1);
            }

            @Override
            public long takeStallMillis() {
                return 0;
            }
        };
        server = new TdsServer(0, db -> new FakeSession(), new LoginPolicy("dpone", PASSWORD.toCharArray()),
            TwinCertificate.context(dir), faults);
        define();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    static Connection connect(String extra) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlserver://127.0.0.1:" + server.port() + ";databaseName=twin;"
            + extra, "dpone", PASSWORD);
    }

    static ResultColumn col(String name, String type, boolean nullable) {
        return new ResultColumn(name, SqlType.parse(type), nullable);
    }

    static final String[] TYPES = {"tinyint", "smallint", "int", "bigint", "bit", "decimal(38,10)", "numeric(5,2)",
        "money", "smallmoney", "real", "float", "char(6)", "varchar(20) COLLATE Chinese_PRC_CI_AS",
        "varchar(20)", "nchar(3)", "nvarchar(20)", "binary(4)", "varbinary(8)", "date", "time(7)", "datetime2(7)",
        "datetime2(0)", "datetimeoffset(7)", "datetime", "smalldatetime", "uniqueidentifier"};
    static final UUID GUID = UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964ff");
    static final Object[] EXTREMES = {(short) 255, (short) -32768, Integer.MIN_VALUE, Long.MAX_VALUE, true,
        new BigDecimal("-9999999999999999999999999999.9999999999"), new BigDecimal("-999.99"),
        new BigDecimal("-922337203685477.5808"), new BigDecimal("-214748.3648"), Float.MIN_VALUE, -Double.MAX_VALUE,
        "café", "中文测试", "déjà vu €", "ab", "emoji 😀 \t\n", new byte[] {1, 2}, new byte[] {(byte) 0xFF, 0},
        LocalDate.of(1, 1, 1), LocalTime.parse("23:59:59.9999999"), LocalDateTime.parse("9999-12-31T23:59:59.9999999"),
        LocalDateTime.parse("1900-01-01T00:00:00"), OffsetDateTime.parse("2024-02-29T12:34:56.1234567+05:30"),
        LocalDateTime.parse("2024-01-01T10:00:00.123"), LocalDateTime.parse("2079-06-06T23:59:00"), GUID};

    static void define() {
        List<ResultColumn> notNull = new ArrayList<>();
        List<ResultColumn> nullable = new ArrayList<>();
        for (int i = 0; i < TYPES.length; i++) {
            notNull.add(col("c" + i, TYPES[i], false));
            nullable.add(col("c" + i, TYPES[i], true));
        }
        FakeSession.define("notnull", notNull, List.<Object[]>of(EXTREMES));
        Object[] nulls = new Object[TYPES.length];
        List<Object[]> rows = new ArrayList<>();
        rows.add(EXTREMES);
        rows.add(nulls);
        Object[] someNull = EXTREMES.clone();
        someNull[3] = null;
        rows.add(someNull);
        FakeSession.define("nullable", nullable, rows);
        char[] big = new char[700_000];
        Arrays.fill(big, 'é');
        byte[] bytes = new byte[2 * 1024 * 1024 + 3];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        FakeSession.define("max", List.of(col("n", "nvarchar(max)", true), col("v", "varchar(max)", true),
                col("b", "varbinary(max)", true), col("t", "text", true), col("nt", "ntext", true), col("i", "image", true)),
            List.of(new Object[] {new String(big) + "😀", new String(big), bytes, "text é", "ntext 😀", new byte[] {7}},
                new Object[6]));
    }

    static void assertRow(ResultSet rs, Object[] expected) throws SQLException {
        assertEquals(((Number) expected[0]).intValue(), rs.getInt(1));
        assertEquals(expected[1], rs.getShort(2));
        assertEquals(expected[2], rs.getInt(3));
        assertEquals(expected[3] == null ? 0L : expected[3], rs.getLong(4));
        assertEquals(expected[4], rs.getBoolean(5));
        assertEquals(expected[5], rs.getBigDecimal(6));
        assertEquals(expected[6], rs.getBigDecimal(7));
        assertEquals(expected[7], rs.getBigDecimal(8));
        assertEquals(expected[8], rs.getBigDecimal(9));
        assertEquals(Float.floatToRawIntBits((Float) expected[9]), Float.floatToRawIntBits(rs.getFloat(10)));
        assertEquals(Double.doubleToRawLongBits((Double) expected[10]), Double.doubleToRawLongBits(rs.getDouble(11)));
        assertEquals("café  ", rs.getString(12));
        assertEquals(expected[12], rs.getString(13));
        assertEquals(expected[13], rs.getString(14));
        assertEquals("ab ", rs.getString(15));
        assertEquals(expected[15], rs.getString(16));
        assertArrayEquals(new byte[] {1, 2, 0, 0}, rs.getBytes(17));
        assertArrayEquals((byte[]) expected[17], rs.getBytes(18));
        assertEquals(expected[18], rs.getObject(19, LocalDate.class));
        assertEquals(expected[19], rs.getObject(20, LocalTime.class));
        assertEquals(expected[20], rs.getObject(21, LocalDateTime.class));
        assertEquals(expected[21], rs.getObject(22, LocalDateTime.class));
        assertEquals(expected[22], rs.getObject(23, OffsetDateTime.class));
        assertEquals(expected[23], rs.getObject(24, LocalDateTime.class));
        assertEquals(expected[24], rs.getObject(25, LocalDateTime.class));
        assertEquals(GUID.toString().toUpperCase(), rs.getString(26));
    }

    @Test
    void everyTypeDecodesExactlyWithFixedAndNullableEncodings() throws Exception {
        for (String encrypt : List.of("encrypt=false", "encrypt=true;trustServerCertificate=true")) {
            try (Connection c = connect(encrypt); Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("rows:notnull")) {
                    assertTrue(rs.next());
                    assertRow(rs, EXTREMES);
                    assertFalse(rs.next());
                }
                try (ResultSet rs = st.executeQuery("rows:nullable")) {
                    assertTrue(rs.next());
                    assertRow(rs, EXTREMES);
                    assertTrue(rs.next());
                    for (int i = 1; i <= TYPES.length; i++) {
                        assertNull(rs.getObject(i), "column " + i);
                    }
                    assertTrue(rs.next());
                    rs.getLong(4);
                    assertTrue(rs.wasNull());
                    assertEquals(new BigDecimal("-922337203685477.5808"), rs.getBigDecimal(8));
                    assertFalse(rs.next());
                }
            }
        }
    }

    @Test
    void metadataNamesTheDeclaredSqlServerTypes() throws Exception {
        try (Connection c = connect("encrypt=false"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("rows:nullable")) {
            var md = rs.getMetaData();
            assertEquals("tinyint", md.getColumnTypeName(1));
            assertEquals("money", md.getColumnTypeName(8));
            assertEquals("decimal", md.getColumnTypeName(6));
            assertEquals(38, md.getPrecision(6));
            assertEquals(10, md.getScale(6));
            assertEquals("datetime2", md.getColumnTypeName(21));
            assertEquals(7, md.getScale(21));
            assertEquals("datetimeoffset", md.getColumnTypeName(23));
            assertEquals("uniqueidentifier", md.getColumnTypeName(26));
            assertEquals("varchar", md.getColumnTypeName(13));
        }
    }

    @Test
    void maxValuesStreamAsPlpUnderAdaptiveBuffering() throws Exception {
        try (Connection c = connect("encrypt=false;responseBuffering=adaptive;selectMethod=direct");
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("rows:max")) {
            assertTrue(rs.next());
            String n = rs.getString(1);
            assertEquals(700_002, n.length());
            assertTrue(n.endsWith("é😀"));
            assertEquals(700_000, rs.getString(2).length());
            assertEquals('é', rs.getString(2).charAt(699_999));
            byte[] b = rs.getBytes(3);
            assertEquals(2 * 1024 * 1024 + 3, b.length);
            assertEquals((byte) (b.length - 1), b[b.length - 1]);
            assertEquals("text é", rs.getString(4));
            assertEquals("ntext 😀", rs.getString(5));
            assertArrayEquals(new byte[] {7}, rs.getBytes(6));
            assertTrue(rs.next());
            for (int i = 1; i <= 6; i++) {
                assertNull(rs.getObject(i));
            }
        }
    }

    @Test
    void parametersArriveTypedAndComeBackExact() throws Exception {
        try (Connection c = connect("encrypt=false");
             PreparedStatement ps = c.prepareStatement("echo ?, ?, ?, ?, ?, ?, ?, ?, ?")) {
            ps.setLong(1, Long.MIN_VALUE);
            ps.setString(2, "text 😀 中文");
            ps.setBigDecimal(3, new BigDecimal("-12345678901234567890.123456789"));
            ps.setObject(4, LocalDateTime.parse("2024-02-29T23:59:59.1234567"));
            ps.setBytes(5, new byte[] {0, 1, (byte) 0xFE});
            ps.setNull(6, java.sql.Types.VARCHAR);
            ps.setInt(7, -7);
            ps.setBoolean(8, true);
            ps.setString(9, "x".repeat(5000));
            for (int round = 0; round < 3; round++) { // sp_executesql, then sp_prepexec, then sp_execute
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(Long.MIN_VALUE, rs.getLong(1));
                    assertEquals("text 😀 中文", rs.getString(2));
                    assertEquals(0, new BigDecimal("-12345678901234567890.123456789").compareTo(rs.getBigDecimal(3)));
                    assertEquals(LocalDateTime.parse("2024-02-29T23:59:59.1234567"),
                        rs.getObject(4, LocalDateTime.class));
                    assertArrayEquals(new byte[] {0, 1, (byte) 0xFE}, rs.getBytes(5));
                    assertNull(rs.getString(6));
                    assertEquals(-7, rs.getInt(7));
                    assertTrue(rs.getBoolean(8));
                    assertEquals(5000, rs.getString(9).length());
                }
            }
        }
    }

    @Test
    void serverErrorsKeepTheirNumbersAndTheConnection() throws Exception {
        try (Connection c = connect("encrypt=false"); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("error:208"));
            assertEquals(208, e.getErrorCode());
            try (ResultSet rs = st.executeQuery("count:2")) {
                assertTrue(rs.next());
            }
        }
    }

    @Test
    void wrongPasswordIsLoginFailed18456() {
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
            "jdbc:sqlserver://127.0.0.1:" + server.port() + ";databaseName=twin;encrypt=false", "dpone", "wrong"));
        assertEquals(18456, e.getErrorCode());
    }

    @Test
    void severalResultSetsInOneBatch() throws Exception {
        try (Connection c = connect("encrypt=false"); Statement st = c.createStatement()) {
            assertTrue(st.execute("count:2;set nocount on;count:3"));
            int sets = 0;
            int rows = 0;
            do {
                try (ResultSet rs = st.getResultSet()) {
                    sets++;
                    while (rs.next()) {
                        rows++;
                    }
                }
            } while (st.getMoreResults() || st.getUpdateCount() != -1);
            assertEquals(2, sets);
            assertEquals(5, rows);
        }
    }

    @Test
    void cancelStopsALongResultAndTheConnectionStaysUsable() throws Exception {
        try (Connection c = connect("encrypt=false;responseBuffering=adaptive"); Statement st = c.createStatement()) {
            ResultSet rs = st.executeQuery("count:100000000");
            for (int i = 0; i < 1000; i++) {
                assertTrue(rs.next());
            }
            st.cancel();
            assertThrows(SQLException.class, () -> {
                while (rs.next()) {
                    // drains until the cancel is acknowledged
                }
            });
            try (ResultSet again = st.executeQuery("count:3")) {
                int n = 0;
                while (again.next()) {
                    n++;
                }
                assertEquals(3, n);
            }
        }
    }

    @Test
    void aDroppedConnectionMidResultFailsTheRead() throws Exception {
        try (Connection c = connect("encrypt=false;responseBuffering=adaptive"); Statement st = c.createStatement()) {
            DROP_AFTER.set(500);
            ResultSet rs = st.executeQuery("count:100000");
            int[] rows = {0};
            SQLException e = assertThrows(SQLException.class, () -> {
                while (rs.next()) {
                    rows[0]++;
                }
            });
            assertEquals(500, rows[0]);
            assertTrue(c.isClosed() || !c.isValid(2), e.getMessage());
        }
    }
}
