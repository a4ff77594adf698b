package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.manifest.ManifestLoader;
import io.dpone.quality.GateResult;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The source contract, run by {@link MssqlTwinFullRefreshTest} against the SQL Server twin and by
 * {@link MssqlSourceIT} against a real server: full refreshes through the real mssql-jdbc (a {@code jdbc:sqlserver:}
 * URL, SQL authentication, the product's own connection settings) into the embedded ClickHouse. A table created
 * through the driver with every mapped type (extremes, NULLs, a cp1252 and a code page 936 {@code varchar},
 * {@code (max)} values over 1 MiB, emoji, TSV breakers, {@code datetime2(7)}) lands on every streaming route with
 * every gate green and the values exact; parallel range readers over TLS read every row once; a wrong password is
 * {@code connection.failed} naming neither the password nor the endpoint.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MssqlSourceContract {
    /** A SQL Server to run the contract on: a URL with its database, a login, the password's file. */
    record Server(String url, String tlsUrl, String user, Path passwordFile) {
    }

    Server server;
    static final String BIG_TEXT = "€uro ".repeat(250_000) + "😀"; // 1.25M chars: PLP over several packets
    static final byte[] BIG_BYTES = new byte[1_200_000];

    @TempDir
    Path dir;

    /** Starts or names the server; called once, before the contract's table is created. */
    abstract Server start() throws Exception;

    @BeforeAll
    void createContractTable() throws Exception {
        server = start();
        for (int i = 0; i < BIG_BYTES.length; i++) {
            BIG_BYTES[i] = (byte) (i * 31);
        }
        try (Connection c = connect(server.url())) {
            createFidelityTable(c);
        }
    }

    Connection connect(String url) throws Exception {
        return java.sql.DriverManager.getConnection(url, server.user(), Files.readString(server.passwordFile()).trim());
    }

    ConnectionContext context(String url) {
        return context(url, server.passwordFile());
    }

    ConnectionContext context(String url, Path passwordFile) {
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, new ContextEntry(TestEngines.SOURCE, ConnectionType.MSSQL, url, server.user(),
                null, passwordFile.toString(), false, Map.of()),
            TestEngines.CLICKHOUSE, new ContextEntry(TestEngines.CLICKHOUSE, ConnectionType.CLICKHOUSE, null, null,
                null, null, true, Map.of("path", TestEngines.clickHousePath().toString()))), false);
    }

    /** {@code dbo.fidelity}: every mapped type; row 1 extremes, row 2 everyday values, row 3 NULLs. */
    static void createFidelityTable(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute("IF OBJECT_ID('dbo.fidelity', 'U') IS NOT NULL DROP TABLE dbo.fidelity");
            st.execute("CREATE TABLE dbo.fidelity (id int NOT NULL PRIMARY KEY, i8 tinyint, i16 smallint, i32 int, "
                + "i64 bigint, b bit, d38 decimal(38,10), n18 numeric(18,4), m money, sm smallmoney, f32 real, "
                + "f64 float, c10 char(10), v1252 varchar(100), vgbk varchar(60) COLLATE Chinese_PRC_CI_AS, "
                + "nc nchar(4), nv nvarchar(200), nvmax nvarchar(max), vmax varchar(max), bin8 binary(8), "
                + "vbin varbinary(64), vbmax varbinary(max), dt date, ts7 datetime2(7), ts3 datetime2(3), "
                + "dtm datetime, sdt smalldatetime, dto datetimeoffset(7), g uniqueidentifier, tx text, ntx ntext, "
                + "img image)");
        }
        String insert = "INSERT INTO dbo.fidelity VALUES (" + "?,".repeat(31) + "?)";
        try (PreparedStatement ps = c.prepareStatement(insert)) {
            Object[][] rows = {
                {1, (short) 255, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, true,
                    new BigDecimal("-9999999999999999999999999999.9999999999"), new BigDecimal("99999999999999.9999"),
                    new BigDecimal("-922337203685477.5808"), new BigDecimal("214748.3647"), Float.MIN_VALUE,
                    Double.MAX_VALUE, "tab\there", "café ÿ€ \\n\tend", "中文测试", "😀", "line\nbreak\r\\ \"q\" 😀",
                    BIG_TEXT, "é".repeat(1_100_000), new byte[] {0, 1, 2, 3, 4, 5, 6, (byte) 0xFF},
                    new byte[] {(byte) 0x80, 0, 0x7F}, BIG_BYTES, LocalDate.of(1900, 1, 1),
                    LocalDateTime.parse("2299-12-31T23:59:59.9999999"), LocalDateTime.parse("1900-01-01T00:00:00.001"),
                    LocalDateTime.parse("2024-02-29T23:59:59.997"), LocalDateTime.parse("2079-06-06T23:59:00"),
                    OffsetDateTime.parse("2024-02-29T01:30:00.1234567+05:30"),
                    UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964ff"), "legacy text é", "legacy ntext 中",
                    new byte[] {9, 8, 7}},
                {2, (short) 0, (short) 7, 42, -1L, false, new BigDecimal("0.0000000001"), new BigDecimal("-0.5000"),
                    new BigDecimal("0.0001"), new BigDecimal("-0.0001"), -Float.MIN_VALUE, 1.0 / 3, "a", "", "", "ab", "",
                    "", "", new byte[8], new byte[0], new byte[0], LocalDate.of(2299, 12, 31),
                    LocalDateTime.parse("1970-01-01T00:00:00.0000001"), LocalDateTime.parse("2024-06-01T12:00:00.5"),
                    LocalDateTime.parse("1900-01-01T00:00:00"), LocalDateTime.parse("1900-01-01T00:00:00"),
                    OffsetDateTime.parse("1900-01-01T12:00:00-08:00"), new UUID(0, 0), "", "", new byte[0]},
                {3, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                    null, null, null, null, null, null, null, null, null, null, null, null, null, null, null}};
            for (Object[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    if (row[i] == null) {
                        ps.setNull(i + 1, java.sql.Types.NULL);
                    } else {
                        ps.setObject(i + 1, row[i]);
                    }
                }
                ps.executeUpdate();
            }
        }
    }

    Path manifest(String db, String route, int readers) throws Exception {
        Path file = Manifests.fullRefresh(dir, "fidelity", db, "route: " + route);
        Files.writeString(file, Files.readString(file).replace("{fetch_size: 1000, chunk_rows: 700}",
            "{fetch_size: 1000, chunk_rows: 2, parallel_readers: " + readers + ", parallel_min_rows: 1}")
            + "quality:\n  typed_hash: full\n  distinct_columns: [id, g]\n");
        return file;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"typed_raw_streaming", "typed_binary_streaming", "direct_push_columnar.chunked"})
    void everyMappedTypeLandsExactlyOnEachRouteWithEveryGateGreen(String route) throws Exception {
        String db = TestEngines.newDatabase("twin_src");
        try (DponeCamel camel = DponeCamel.start(null, false); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            RunReport r = new FullRefreshRunner(camel, context(server.url()), dir)
                .run(ManifestLoader.load(manifest(db, route, 1)), "twin-src-1", ProgressListener.NONE);
            assertTrue(r.passed(), () -> route + ": " + r.blockers());
            assertEquals(3, r.loadedRows());
            assertTrue(r.gates().size() >= 8, r.gates().toString());
            for (GateResult g : r.gates()) {
                assertEquals("passed", g.status(), () -> route + " gate " + g.gate() + ": " + g);
            }
            assertValuesExact(ch, db);
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @Test
    void parallelRangeReadersOverTlsReadEveryRowOnce() throws Exception {
        String db = TestEngines.newDatabase("twin_src_par");
        try (DponeCamel camel = DponeCamel.start(null, false); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            RunReport r = new FullRefreshRunner(camel, context(server.tlsUrl()), dir)
                .run(ManifestLoader.load(manifest(db, "typed_binary_streaming", 3)), "twin-par-1",
                    ProgressListener.NONE);
            assertTrue(r.passed(), () -> String.valueOf(r.blockers()));
            assertEquals(3, r.loadedRows());
            assertValuesExact(ch, db);
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    static final int KEYED_ROWS = 2_400;

    /**
     * A GUID-keyed and a composite-keyed (varchar, date, int) table through the real driver: three key-range readers
     * (bounds from the server's statistics or its own ordered key sample, predicates with typed parameters) load
     * every row exactly once with every gate green; an attempt killed after two chunks is resumed by the same run id,
     * which loads only the rows its staging table lacked.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"guid_keys", "composite_keys"})
    void guidAndCompositeKeysLoadWithThreeRangeReadersAndResumeAfterAKill(String table) throws Exception {
        java.util.Random random = new java.util.Random(32);
        try (Connection c = connect(server.url())) {
            try (Statement st = c.createStatement()) {
                st.execute("IF OBJECT_ID('dbo." + table + "', 'U') IS NOT NULL DROP TABLE dbo." + table);
                st.execute(table.equals("guid_keys")
                    ? "CREATE TABLE dbo.guid_keys (id uniqueidentifier NOT NULL PRIMARY KEY, n int NOT NULL, "
                        + "note varchar(20))"
                    : "CREATE TABLE dbo.composite_keys (region varchar(8) NOT NULL, day date NOT NULL, seq int NOT NULL, "
                        + "qty int, PRIMARY KEY (region, day, seq))");
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(table.equals("guid_keys")
                    ? "INSERT INTO dbo.guid_keys VALUES (?, ?, ?)" : "INSERT INTO dbo.composite_keys VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < KEYED_ROWS; i++) {
                    if (table.equals("guid_keys")) {
                        ps.setObject(1, new UUID(random.nextLong(), random.nextLong()).toString());
                        ps.setInt(2, i);
                        ps.setString(3, i % 9 == 0 ? null : "n-" + i);
                    } else {
                        ps.setString(1, List.of("eu-west", "us-east", "ap").get(i % 3));
                        ps.setObject(2, LocalDate.of(2024, 1, 1).plusDays(i % 40));
                        ps.setInt(3, i);
                        ps.setInt(4, random.nextInt(100));
                    }
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
        String key = table.equals("guid_keys") ? "toString(id)" : "concat(region, '|', toString(day), '|', toString(seq))";
        String db = TestEngines.newDatabase("twin_keys");
        Path file = Manifests.write(dir.resolve(table + ".batch.yaml"), """
            name: twin-key-ranges
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: %s}
              options: {fetch_size: 500, chunk_rows: 300, parallel_readers: 3, parallel_min_rows: 1}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: %s}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
            """.formatted(TestEngines.SOURCE, table, TestEngines.CLICKHOUSE, db, table, db));
        var manifest = ManifestLoader.load(file);
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            try (DponeCamel camel = DponeCamel.start(null, false)) {
                RunReport r = new FullRefreshRunner(camel, context(server.url()), dir).run(manifest, "twin-keys-1",
                    ProgressListener.NONE);
                assertTrue(r.passed(), () -> String.valueOf(r.blockers()));
                assertTrue(r.notes().get(0).startsWith("source read by 3 readers in key ranges of "), r.notes()::toString);
                assertTrue(r.gates().stream().noneMatch(GateResult::isFailed), r.gates()::toString);
                assertEquals(List.of(String.valueOf(KEYED_ROWS), String.valueOf(KEYED_ROWS)), ch.query("SELECT count(), "
                    + "uniqExact(" + key + ") FROM " + ClickHouseSql.table(db, table)).get(0));
            }
            try (DponeCamel camel = DponeCamel.start(null, false, Map.of("failedRun", (org.apache.camel.Processor) e -> { },
                    "loadChunk", io.dpone.testing.FullRefreshFixture.crashAfter(2)))) {
                assertFalse(new FullRefreshRunner(camel, context(server.url()), dir).run(manifest, "twin-keys-2",
                    ProgressListener.NONE).passed());
            }
            try (DponeCamel camel = DponeCamel.start(null, false)) {
                RunReport resumed = new FullRefreshRunner(camel, context(server.url()), dir).run(manifest, "twin-keys-2",
                    ProgressListener.NONE);
                assertTrue(resumed.passed(), () -> String.valueOf(resumed.blockers()));
                long kept = resumed.resumedStaging().rowsKept();
                assertTrue(kept >= 2 * 300 && kept < KEYED_ROWS, "kept " + kept);
                assertEquals(KEYED_ROWS - kept, resumed.loadedRows(), "only the rows the staging lacked are loaded");
                assertEquals(List.of(String.valueOf(KEYED_ROWS), String.valueOf(KEYED_ROWS)), ch.query("SELECT count(), "
                    + "uniqExact(" + key + ") FROM " + ClickHouseSql.table(db, table)).get(0));
            }
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    static void assertValuesExact(ClickHouseEndpoint ch, String db) {
        String t = ClickHouseSql.table(db, "fidelity");
        List<List<String>> one = ch.query("SELECT toString(i8), toString(i16), toString(i32), toString(i64), "
            + "toString(b), toString(d38), toString(n18), toString(m), toString(sm), "
            + "toString(reinterpretAsUInt32(f32)), toString(reinterpretAsUInt64(f64)), hex(c10), hex(v1252), "
            + "hex(vgbk), hex(nc), hex(nv), toString(length(nvmax)), "
            + "toString(nvmax = concat(repeat('€uro ', 250000), '😀')), toString(length(vmax)), hex(bin8), hex(vbin), "
            + "toString(length(vbmax)), "
            + "toString(vbmax = arrayStringConcat(arrayMap(i -> char((i * 31) % 256), range(1200000)))), "
            + "toString(dt), toString(ts7), toString(ts3), toString(dtm), toString(sdt), toString(dto), "
            + "toString(g), hex(tx), hex(ntx), hex(img) FROM " + t + " WHERE id = 1");
        List<String> r = one.get(0);
        assertEquals(List.of("255", "-32768", "-2147483648", "9223372036854775807", "true",
            "-9999999999999999999999999999.9999999999", "99999999999999.9999", "-922337203685477.5808",
            "214748.3647", Integer.toUnsignedString(Float.floatToRawIntBits(Float.MIN_VALUE)),
            Long.toUnsignedString(Double.doubleToRawLongBits(Double.MAX_VALUE))), r.subList(0, 11));
        assertEquals(hex("tab\there  "), r.get(11), "char(10) pads with spaces");
        assertEquals(hex("café ÿ€ \\n\tend"), r.get(12), "cp1252 varchar through its code page");
        assertEquals(hex("中文测试"), r.get(13), "code page 936 varchar");
        assertEquals(hex("😀  "), r.get(14), "nchar(4) pads to four UTF-16 units");
        assertEquals(hex("line\nbreak\r\\ \"q\" 😀"), r.get(15));
        byte[] big = BIG_TEXT.getBytes(StandardCharsets.UTF_8);
        assertEquals(String.valueOf(big.length), r.get(16));
        assertEquals("1", r.get(17), "the whole nvarchar(max) value, byte for byte");
        assertEquals(String.valueOf(2 * 1_100_000), r.get(18), "é is two UTF-8 bytes");
        assertEquals("00010203040506FF", r.get(19));
        assertEquals("80007F", r.get(20));
        assertEquals(String.valueOf(BIG_BYTES.length), r.get(21));
        assertEquals("1", r.get(22), "the whole varbinary(max) value, byte for byte");
        assertEquals(List.of("1900-01-01", "2299-12-31 23:59:59.9999999", "1900-01-01 00:00:00.001",
            "2024-02-29 23:59:59.997", "2079-06-06 23:59:00", "2024-02-28 20:00:00.1234567",
            "6f9619ff-8b86-d011-b42d-00c04fc964ff", hex("legacy text é"), hex("legacy ntext 中"), "090807"),
            r.subList(23, 33));
        List<String> two = ch.query("SELECT toString(reinterpretAsUInt32(f32)), toString(ts7), toString(dto), "
            + "toString(g), hex(bin8), toString(d38) FROM " + t + " WHERE id = 2").get(0);
        assertEquals(List.of(Integer.toUnsignedString(Float.floatToRawIntBits(-Float.MIN_VALUE)), "1970-01-01 00:00:00.0000001",
            "1900-01-01 20:00:00.0000000", "00000000-0000-0000-0000-000000000000", "0000000000000000",
            "0.0000000001"), two);
        assertFalse(ch.query("SELECT 1 FROM " + t + " WHERE id = 3 AND isNull(i8) AND isNull(d38) AND isNull(nvmax) "
            + "AND isNull(vbmax) AND isNull(ts7) AND isNull(dto) AND isNull(g) AND isNull(tx) AND isNull(img)")
            .isEmpty(), "row 3 is NULL in every column");
    }

    @Test
    void aWrongPasswordIsConnectionFailedWithNoSecretOrEndpoint() throws Exception {
        String wrong = "Wrong-" + System.nanoTime() + "-pw";
        Path wrongFile = Files.writeString(dir.resolve("wrong"), wrong);
        io.dpone.error.DponeException e = org.junit.jupiter.api.Assertions.assertThrows(
            io.dpone.error.DponeException.class, () -> io.dpone.source.SourceConnections.open(
                context(server.url(), wrongFile).resolve(TestEngines.SOURCE, ConnectionType.MSSQL, "test"), "dpone"));
        assertEquals(io.dpone.error.BlockerCode.CONNECTION_FAILED.code(), e.blockers().get(0).code());
        String text = e.getMessage() + e.blockers();
        // the user and the credential's source are named on purpose (what to check); the password and the endpoint never
        for (String leak : List.of(wrong, Files.readString(server.passwordFile()).trim(),
            server.url().replaceFirst("^jdbc:sqlserver://([^;]*).*$", "$1"))) {
            assertFalse(text.contains(leak), () -> leak + " in " + text);
        }
    }

    static String hex(String s) {
        return HexFormat.of().withUpperCase().formatHex(s.getBytes(StandardCharsets.UTF_8));
    }
}
