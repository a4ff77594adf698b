package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.mssql.tds.LoginPolicy;
import io.dpone.testing.mssql.tds.TdsServer;
import io.dpone.testing.mssql.tds.TwinCertificate;
import io.dpone.testing.mssql.tds.WireFaults;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The type breadth of a real schema (issue 29) through the real mssql-jdbc against the twin: rowversion, time(n),
 * xml, hierarchyid, geography/geometry, sql_variant, alias types, computed and sparse columns, and CDC on them.
 * One twin for the class (its certificate costs a keytool run); each test has its own tables.
 */
@Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
@io.dpone.testing.EngineTest
class JdbcTypeBreadthTest {
    private static final String PASSWORD = "breadth-" + UUID.randomUUID();

    @TempDir
    static Path dir;
    private static H2Backend backend;
    private static TdsServer server;
    private Connection c;

    @BeforeAll
    static void startTwin() throws Exception {
        H2Backend.faults().clear();
        backend = new H2Backend(dir.resolve("db"));
        backend.createDatabase("shop");
        server = new TdsServer(0, backend::open, new LoginPolicy("dpone", PASSWORD.toCharArray()),
            TwinCertificate.context(dir), WireFaults.NONE);
    }

    @AfterAll
    static void stopTwin() throws Exception {
        server.close();
        backend.close();
    }

    @BeforeEach
    void connect() throws Exception {
        c = DriverManager.getConnection("jdbc:sqlserver://127.0.0.1:" + server.port() + ";databaseName=shop;"
            + "encrypt=false", "dpone", PASSWORD);
    }

    @AfterEach
    void disconnect() throws Exception {
        c.close();
    }

    private void run(String... sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    private List<Object[]> rows(String sql) throws SQLException {
        List<Object[]> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                out.add(row);
            }
        }
        return out;
    }

    /** getColumns of a table: column name to its row (label to value). */
    private Map<String, Map<String, Object>> columns(String table) throws SQLException {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        try (ResultSet rs = c.getMetaData().getColumns("shop", "dbo", table, "%")) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Map<String, Object> row = new HashMap<>();
                for (int i = 1; i <= n; i++) {
                    row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                }
                out.put(rs.getString("COLUMN_NAME"), row);
            }
        }
        return out;
    }

    private static SQLException refused(Connection c, String sql) {
        return assertThrows(SQLException.class, () -> {
            try (Statement st = c.createStatement()) {
                st.execute(sql);
            }
        });
    }

    @Test
    void rowversionIsTheEnginesBigEndianCounterReportedAsTimestamp() throws Exception {
        run("CREATE TABLE dbo.rv (id int NOT NULL PRIMARY KEY, n nvarchar(10), ver rowversion)",
            "CREATE TABLE dbo.ts (id int NOT NULL, t timestamp)");
        run("INSERT INTO dbo.rv (id, n) VALUES (1, N'a')", "INSERT INTO dbo.rv (id, n) VALUES (2, N'b')",
            "INSERT INTO dbo.ts (id) VALUES (1)");
        List<Object[]> before = rows("SELECT id, ver FROM dbo.rv ORDER BY id");
        byte[] v1 = (byte[]) before.get(0)[1];
        byte[] v2 = (byte[]) before.get(1)[1];
        assertEquals(8, v1.length);
        assertTrue(new BigInteger(1, v2).compareTo(new BigInteger(1, v1)) > 0, "each insert gets the next value");
        byte[] t1 = (byte[]) rows("SELECT t FROM dbo.ts").get(0)[0];
        assertEquals(new BigInteger(1, v2).add(BigInteger.ONE), new BigInteger(1, t1), "one counter per database");
        byte[] dbts = (byte[]) rows("SELECT @@DBTS").get(0)[0];
        assertArrayEquals(t1, dbts, "@@DBTS is the last value handed out");

        run("UPDATE dbo.rv SET n = N'a2' WHERE id = 1");
        byte[] v1b = (byte[]) rows("SELECT ver FROM dbo.rv WHERE id = 1").get(0)[0];
        assertEquals(new BigInteger(1, t1).add(BigInteger.ONE), new BigInteger(1, v1b), "an update takes the next one");
        assertArrayEquals(v2, (byte[]) rows("SELECT ver FROM dbo.rv WHERE id = 2").get(0)[0], "other rows keep theirs");
        // big-endian: the value read as an unsigned 64-bit number is the counter
        assertEquals(ByteBuffer.wrap(v1b).getLong(), new BigInteger(1, v1b).longValueExact());

        assertEquals(273, refused(c, "INSERT INTO dbo.rv (id, ver) VALUES (3, 0x01)").getErrorCode());
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo.rv (id, n, ver) VALUES (?, ?, ?)")) {
            ps.setInt(1, 3);
            ps.setString(2, "c");
            ps.setBytes(3, new byte[8]);
            assertEquals(273, assertThrows(SQLException.class, ps::executeUpdate).getErrorCode());
        }
        assertEquals(272, refused(c, "UPDATE dbo.rv SET ver = 0x01 WHERE id = 1").getErrorCode());
        assertEquals(273, refused(c, "INSERT INTO dbo.rv VALUES (3, N'c', 0x01)").getErrorCode(), "no column list");
        assertEquals(273, refused(c, "INSERT INTO dbo.rv (id, ver) SELECT 3, 0x01").getErrorCode());
        run("INSERT INTO dbo.rv VALUES (3, N'c', DEFAULT)", "INSERT INTO dbo.rv (id, ver) VALUES (4, NULL)");
        List<Object[]> filled = rows("SELECT ver FROM dbo.rv WHERE id IN (3, 4) ORDER BY id");
        assertEquals(new BigInteger(1, v1b).add(BigInteger.ONE), new BigInteger(1, (byte[]) filled.get(0)[0]),
            "DEFAULT (or NULL) takes the next value");
        assertEquals(new BigInteger(1, v1b).add(BigInteger.TWO), new BigInteger(1, (byte[]) filled.get(1)[0]));

        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT ver FROM dbo.rv")) {
            assertEquals("timestamp", rs.getMetaData().getColumnTypeName(1));
            assertEquals(Types.BINARY, rs.getMetaData().getColumnType(1));
        }
        Map<String, Object> ver = columns("rv").get("ver");
        assertEquals("timestamp", ver.get("TYPE_NAME"));
        assertEquals(Types.BINARY, ver.get("DATA_TYPE"));
        assertEquals(8, ver.get("COLUMN_SIZE"));
        assertEquals(0, ver.get("NULLABLE"));
        assertEquals("timestamp", columns("ts").get("t").get("TYPE_NAME"));
    }

    @Test
    void timeKeepsHundredNanosecondsAndIsTypesTimeInGetColumns() throws Exception {
        run("CREATE TABLE dbo.tt (id int NOT NULL PRIMARY KEY, t7 time(7), t0 time(0), t3 time)");
        run("INSERT INTO dbo.tt VALUES (1, '23:59:59.9999999', '23:59:59', '12:34:56.1234567')",
            "INSERT INTO dbo.tt VALUES (2, '00:00:00', '00:00:00', '00:00:00.0000001')",
            "INSERT INTO dbo.tt VALUES (3, NULL, NULL, NULL)");
        // sendTimeAsDatetime=false: the driver's default sends a time parameter as datetime (1/300 s)
        try (Connection exact = DriverManager.getConnection(c.getMetaData().getURL() + ";sendTimeAsDatetime=false",
            "dpone", PASSWORD);
             PreparedStatement ps = exact.prepareStatement("INSERT INTO dbo.tt (id, t7) VALUES (?, ?)")) {
            ps.setInt(1, 4);
            ps.setObject(2, LocalTime.parse("01:02:03.4567891"));
            ps.executeUpdate();
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT t7, t0, t3 FROM dbo.tt ORDER BY id")) {
            assertEquals("time", rs.getMetaData().getColumnTypeName(1));
            assertEquals(7, rs.getMetaData().getScale(1));
            rs.next();
            assertEquals(LocalTime.parse("23:59:59.9999999"), rs.getObject(1, LocalTime.class));
            assertEquals("23:59:59.9999999", rs.getString(1));
            assertEquals("23:59:59", rs.getString(2));
            assertEquals(LocalTime.parse("12:34:56.1234567"), rs.getObject(3, LocalTime.class), "time is time(7)");
            assertEquals(java.sql.Time.valueOf("23:59:59").toString(), rs.getTime(2).toString());
            rs.next();
            assertEquals(LocalTime.MIDNIGHT, rs.getObject(1, LocalTime.class));
            assertEquals("00:00:00.0000000", rs.getString(1));
            assertEquals(LocalTime.parse("00:00:00.0000001"), rs.getObject(3, LocalTime.class));
            rs.next();
            assertNull(rs.getObject(1, LocalTime.class));
            assertNull(rs.getString(2));
            assertNull(rs.getTime(3));
            rs.next();
            // a java.time value sent as a parameter: the driver rounds nothing below 100 ns
            assertEquals(LocalTime.parse("01:02:03.4567891"), rs.getObject(1, LocalTime.class));
        }
        Map<String, Object> t7 = columns("tt").get("t7");
        assertEquals("time", t7.get("TYPE_NAME"));
        // sp_columns_100 answers SQL_SS_TIME2 (-154); mssql-jdbc's DataTypeFilter rewrites it to Types.TIME (92)
        assertEquals(Types.TIME, t7.get("DATA_TYPE"));
        assertEquals(16, t7.get("COLUMN_SIZE"));
        assertEquals(7, t7.get("DECIMAL_DIGITS"));
        assertEquals(8, columns("tt").get("t0").get("COLUMN_SIZE"));
    }

    @Test
    void xmlRoundTripsThroughGetString() throws Exception {
        run("CREATE TABLE dbo.x (id int NOT NULL PRIMARY KEY, doc xml)");
        String doc = "<order id=\"1\"><line sku=\"é-1\">Grüße 世界</line></order>";
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo.x VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, doc);
            ps.executeUpdate();
            ps.setInt(1, 2);
            ps.setNull(2, Types.NVARCHAR);
            ps.executeUpdate();
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT doc FROM dbo.x ORDER BY id")) {
            assertEquals("xml", rs.getMetaData().getColumnTypeName(1));
            rs.next();
            assertEquals(doc, rs.getString(1));
            rs.next();
            assertNull(rs.getString(1));
        }
        // SQL Server keeps a document as it re-serialises it, not as the client wrote it
        run("INSERT INTO dbo.x VALUES (3, N'<?xml version=\"1.0\"?><a y=''2'' x=\"1\"><b></b>  <c>t &gt; u</c>"
            + "<![CDATA[<z>]]><d xml:space=\"preserve\">  </d><!--n--></a>')");
        assertEquals("<a y=\"2\" x=\"1\"><b /><c>t &gt; u</c>&lt;z&gt;<d xml:space=\"preserve\">  </d><!--n--></a>",
            rows("SELECT doc FROM dbo.x WHERE id = 3").get(0)[0]);
        run("INSERT INTO dbo.x VALUES (4, N'text <e/> more')");
        assertEquals("text <e /> more", rows("SELECT doc FROM dbo.x WHERE id = 4").get(0)[0], "a fragment is xml too");
        assertEquals(9400, refused(c, "INSERT INTO dbo.x VALUES (5, N'<a><b></a>')").getErrorCode());
        run("UPDATE dbo.x SET doc = N'<u></u>' WHERE id = 4");
        assertEquals("<u />", rows("SELECT doc FROM dbo.x WHERE id = 4").get(0)[0]);
        Map<String, Object> col = columns("x").get("doc");
        assertEquals("xml", col.get("TYPE_NAME"));
        // sp_columns_100 answers SQL_SS_XML (-152); mssql-jdbc rewrites it to xml's JDBC type, LONGNVARCHAR (-16)
        assertEquals(Types.LONGNVARCHAR, col.get("DATA_TYPE"));
        assertEquals(Integer.MAX_VALUE, col.get("COLUMN_SIZE"));
    }

    @Test
    void hierarchyidReadsAsItsCanonicalPath() throws Exception {
        run("CREATE TABLE dbo.org (id int NOT NULL PRIMARY KEY, node hierarchyid)");
        run("INSERT INTO dbo.org VALUES (1, hierarchyid::GetRoot())",
            "INSERT INTO dbo.org VALUES (2, hierarchyid::Parse('/1/2/'))",
            "INSERT INTO dbo.org VALUES (3, '/1/')",
            "INSERT INTO dbo.org VALUES (4, hierarchyid::Parse('/01/-2.5/'))",
            "INSERT INTO dbo.org VALUES (5, NULL)");
        List<Object[]> cast = rows("SELECT CAST([node] AS nvarchar(4000)) AS [node], [node].ToString() AS t "
            + "FROM [dbo].[org] ORDER BY id");
        assertEquals(List.of("/", "/1/2/", "/1/", "/1/-2.5/"), cast.subList(0, 4).stream().map(r -> r[0]).toList());
        assertEquals(List.of("/", "/1/2/", "/1/", "/1/-2.5/"), cast.subList(0, 4).stream().map(r -> r[1]).toList());
        assertNull(cast.get(4)[0]);
        assertNull(cast.get(4)[1]);
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CAST([node] AS nvarchar(4000)) AS [node] FROM dbo.org")) {
            assertEquals("nvarchar", rs.getMetaData().getColumnTypeName(1));
            assertEquals(4000, rs.getMetaData().getPrecision(1));
        }
        SQLException raw = refused(c, "SELECT node FROM dbo.org");
        assertTrue(raw.getMessage().contains("mssql-twin") && raw.getMessage().contains("hierarchyid"), raw.getMessage());
        assertEquals(6522, refused(c, "INSERT INTO dbo.org VALUES (6, hierarchyid::Parse('/a/'))").getErrorCode());
        assertTrue(refused(c, "INSERT INTO dbo.org VALUES (7, '/01/')").getMessage().contains("canonical"));
        Map<String, Object> node = columns("org").get("node");
        assertEquals("hierarchyid", node.get("TYPE_NAME"));
        // sp_columns_100 answers SQL_SS_UDT (-151); mssql-jdbc rewrites it to VARBINARY (-3)
        assertEquals(Types.VARBINARY, node.get("DATA_TYPE"));
        assertEquals(892, node.get("COLUMN_SIZE"));
        assertEquals("sys", node.get("SS_UDT_SCHEMA_NAME"));
        assertTrue(((String) node.get("SS_UDT_ASSEMBLY_TYPE_NAME")).startsWith("Microsoft.SqlServer.Types.SqlHierarchyId"));
    }

    static byte[] point(double x, double y, ByteOrder order) {
        return ByteBuffer.allocate(21).order(order).put((byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 0)).putInt(1)
            .putDouble(x).putDouble(y).array();
    }

    static byte[] line(double... xy) {
        ByteBuffer b = ByteBuffer.allocate(9 + 8 * xy.length).order(ByteOrder.LITTLE_ENDIAN).put((byte) 1).putInt(2)
            .putInt(xy.length / 2);
        for (double d : xy) {
            b.putDouble(d);
        }
        return b.array();
    }

    static String hex(byte[] b) {
        return "0x" + java.util.HexFormat.of().formatHex(b);
    }

    @Test
    void spatialReadsAsWkbAndSrid() throws Exception {
        run("CREATE TABLE dbo.places (id int NOT NULL PRIMARY KEY, geo geography, shape geometry)");
        byte[] p12 = point(1, 2, ByteOrder.LITTLE_ENDIAN);
        byte[] line = line(-122.358, 47.653, -122.348, 47.649);
        byte[] extreme = point(-180, 90, ByteOrder.LITTLE_ENDIAN);
        run("INSERT INTO dbo.places VALUES (1, geography::STGeomFromWKB(" + hex(p12) + ", 4326), "
                + "geometry::STGeomFromWKB(" + hex(line) + ", 0))",
            "INSERT INTO dbo.places VALUES (2, geography::STGeomFromText('POINT(1 2)', 4326), "
                + "geometry::STGeomFromText('LINESTRING(-122.358 47.653, -122.348 47.649)', 3857))",
            "INSERT INTO dbo.places VALUES (3, geography::STGeomFromWKB(" + hex(point(-180, 90, ByteOrder.BIG_ENDIAN))
                + ", 4269), NULL)",
            "INSERT INTO dbo.places VALUES (4, NULL, geometry::STGeomFromText('POLYGON((0 0, 10 0, 10 10, 0 0))', 0))");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo.places (id, geo) VALUES (?, "
            + "geography::STGeomFromWKB(?, ?))")) {
            ps.setInt(1, 5);
            ps.setBytes(2, line);
            ps.setInt(3, 4326);
            ps.executeUpdate();
        }
        String select = "SELECT [geo].AsBinaryZM() AS [geo], [geo].STSrid AS [geo__srid], [shape].STAsBinary() AS "
            + "[shape], [shape].STSrid AS [shape__srid], [geo].STAsText() AS wkt FROM [dbo].[places] ORDER BY id";
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(select)) {
            assertEquals("varbinary", rs.getMetaData().getColumnTypeName(1));
            assertEquals("int", rs.getMetaData().getColumnTypeName(2));
            assertEquals("geo__srid", rs.getMetaData().getColumnLabel(2));
            rs.next();
            assertArrayEquals(p12, rs.getBytes(1), "the WKB inserted");
            assertEquals(4326, rs.getInt(2));
            assertArrayEquals(line, rs.getBytes(3));
            assertEquals(0, rs.getInt(4));
            assertEquals("POINT (1 2)", rs.getString(5));
            rs.next();
            assertArrayEquals(p12, rs.getBytes(1), "POINT(1 2) as text gives the same WKB");
            assertArrayEquals(line, rs.getBytes(3), "LINESTRING text gives the WKB of its points");
            assertEquals(3857, rs.getInt(4));
            rs.next();
            assertArrayEquals(extreme, rs.getBytes(1), "a big-endian WKB comes back little-endian, as STAsBinary");
            assertEquals(4269, rs.getInt(2));
            assertNull(rs.getBytes(3));
            assertNull(rs.getObject(4), "a NULL instance has a NULL SRID");
            rs.next();
            assertNull(rs.getBytes(1));
            assertNull(rs.getObject(2));
            ByteBuffer poly = ByteBuffer.wrap(rs.getBytes(3)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(1, poly.get());
            assertEquals(3, poly.getInt());
            assertEquals(1, poly.getInt(), "one ring");
            assertEquals(4, poly.getInt(), "four points");
            rs.next();
            assertArrayEquals(line, rs.getBytes(1), "a WKB parameter");
            assertEquals("LINESTRING (-122.358 47.653, -122.348 47.649)", rs.getString(5));
        }
        SQLException raw = refused(c, "SELECT geo FROM dbo.places");
        assertTrue(raw.getMessage().contains("mssql-twin") && raw.getMessage().contains("geography"), raw.getMessage());
        assertEquals(6522, refused(c, "INSERT INTO dbo.places (id, geo) VALUES (9, geography::STGeomFromWKB(0x0102, "
            + "4326))").getErrorCode());
        Map<String, Map<String, Object>> cols = columns("places");
        assertEquals("geography", cols.get("geo").get("TYPE_NAME"));
        assertEquals("geometry", cols.get("shape").get("TYPE_NAME"));
        assertEquals(Types.VARBINARY, cols.get("geo").get("DATA_TYPE"));
        assertEquals(Integer.MAX_VALUE, cols.get("shape").get("COLUMN_SIZE"));
        assertEquals(-151, cols.get("geo").get("SQL_DATA_TYPE"));
        assertEquals((short) 23, cols.get("geo").get("SOURCE_DATA_TYPE"));
    }

    @Test
    void sqlVariantAnswersTheBaseTypeOfEachValue() throws Exception {
        run("CREATE TABLE dbo.props (id int NOT NULL PRIMARY KEY, v sql_variant)");
        run("INSERT INTO dbo.props (id, v) VALUES (1, 42), (2, N'text'), (3, 'ascii'), (4, 1.5), "
            + "(5, CAST('2024-01-02 03:04:05' AS datetime2)), (6, NULL), (7, 3000000000), (8, 1e3)");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo.props (id, v) VALUES (?, ?)")) {
            ps.setInt(1, 9);
            ps.setString(2, "param");
            ps.executeUpdate();
            ps.setInt(1, 10);
            ps.setInt(2, 7);
            ps.executeUpdate();
        }
        run("INSERT INTO dbo.props VALUES (11, CONVERT(decimal(9,2), 2.25))");
        List<Object[]> out = rows("SELECT CAST([v] AS nvarchar(4000)) AS [v], CAST(SQL_VARIANT_PROPERTY([v], "
            + "'BaseType') AS nvarchar(128)) AS [v__type] FROM [dbo].[props] ORDER BY id");
        assertEquals(List.of("int", "nvarchar", "varchar", "numeric", "datetime2", "numeric", "float", "nvarchar",
            "int", "decimal"), out.stream().filter(r -> r[1] != null).map(r -> r[1]).toList());
        assertEquals("42", out.get(0)[0]);
        assertEquals("text", out.get(1)[0]);
        assertEquals("1.5", out.get(3)[0]);
        assertNull(out.get(5)[0]);
        assertNull(out.get(5)[1], "NULL has no base type");
        assertEquals("param", out.get(8)[0]);
        assertFalse(columns("props").containsKey("v__twin_basetype"), "the companion is not a column");
        assertEquals(List.of("id", "v"), new ArrayList<>(columns("props").keySet()));
        assertTrue(refused(c, "INSERT INTO dbo.props (id, v) SELECT 12, N'x'").getMessage().contains("mssql-twin"));
        run("UPDATE dbo.props SET v = 7 WHERE id = 2", "UPDATE [dbo].[props] SET [v] = NULL, id = id WHERE id = 3");
        List<Object[]> after = rows("SELECT CAST([v] AS nvarchar(4000)) AS [v], CAST(SQL_VARIANT_PROPERTY([v], "
            + "'BaseType') AS nvarchar(128)) AS [v__type] FROM [dbo].[props] WHERE id IN (2, 3) ORDER BY id");
        assertEquals(List.of("7", "int"), List.of(after.get(0)));
        assertNull(after.get(1)[0]);
        assertNull(after.get(1)[1]);
        run("ALTER TABLE dbo.props ADD w sql_variant", "INSERT INTO dbo.props (id, w) VALUES (20, N'w')");
        assertEquals("nvarchar", rows("SELECT CAST(SQL_VARIANT_PROPERTY(w, 'BaseType') AS nvarchar(128)) FROM "
            + "dbo.props WHERE id = 20").get(0)[0], "a sql_variant added later keeps base types too");
        run("ALTER TABLE dbo.props DROP COLUMN w");
        assertEquals(List.of("id", "v"), new ArrayList<>(columns("props").keySet()));
        assertEquals(1L, ((Number) rows("SELECT COUNT(*) FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = 'props' "
            + "AND COLUMN_NAME LIKE '%twin_basetype'").get(0)[0]).longValue(), "the companion left with its column");
    }

    @Test
    void aliasTypesReportTheAliasNameWithTheBaseTypesCodes() throws Exception {
        run("CREATE TYPE dbo.Name FROM nvarchar(50) NULL", "CREATE TYPE dbo.Flag FROM bit NOT NULL",
            "CREATE TABLE dbo.person (id int NOT NULL PRIMARY KEY, first_name dbo.Name, last_name [dbo].[Name] NOT NULL, "
                + "active Flag, maybe Flag NULL)");
        run("INSERT INTO dbo.person VALUES (1, N'Zoë', N'Ng', 1, NULL)");
        assertEquals(515, refused(c, "INSERT INTO dbo.person (id, last_name) VALUES (2, N'x')").getErrorCode(),
            "Flag is NOT NULL");
        assertEquals(219, refused(c, "CREATE TYPE dbo.Name FROM int").getErrorCode());
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT first_name, last_name, active, maybe FROM dbo.person")) {
            assertEquals("nvarchar", rs.getMetaData().getColumnTypeName(1), "the wire carries the base type");
            assertEquals("bit", rs.getMetaData().getColumnTypeName(3));
            rs.next();
            assertEquals("Zoë", rs.getString(1));
            assertTrue(rs.getBoolean(3));
            assertNull(rs.getObject(4));
        }
        Map<String, Map<String, Object>> cols = columns("person");
        assertEquals("Name", cols.get("first_name").get("TYPE_NAME"));
        assertEquals(Types.NVARCHAR, cols.get("first_name").get("DATA_TYPE"));
        assertEquals(50, cols.get("first_name").get("COLUMN_SIZE"));
        assertEquals(1, cols.get("first_name").get("NULLABLE"));
        assertEquals(0, cols.get("last_name").get("NULLABLE"));
        assertEquals("Flag", cols.get("active").get("TYPE_NAME"));
        assertEquals(Types.BIT, cols.get("active").get("DATA_TYPE"));
        assertEquals(0, cols.get("active").get("NULLABLE"));
        assertEquals(1, cols.get("maybe").get("NULLABLE"));
    }

    @Test
    void computedColumnsReadAsTheirResultTypeAndRefuseWrites() throws Exception {
        run("CREATE TABLE dbo.calc (a int, n nvarchar(20), b AS (a * 2) PERSISTED, u AS (UPPER(n)), "
            + "x int SPARSE NULL)");
        run("INSERT INTO dbo.calc (a, n) VALUES (21, N'abc')", "INSERT INTO dbo.calc VALUES (NULL, NULL, 5)");
        run("INSERT INTO dbo.calc DEFAULT VALUES", "DELETE FROM dbo.calc WHERE a IS NULL AND x IS NULL");
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM dbo.calc ORDER BY a")) {
            assertEquals(List.of("a", "n", "b", "u", "x"), List.of(rs.getMetaData().getColumnName(1),
                rs.getMetaData().getColumnName(2), rs.getMetaData().getColumnName(3), rs.getMetaData().getColumnName(4),
                rs.getMetaData().getColumnName(5)));
            assertEquals("int", rs.getMetaData().getColumnTypeName(3));
            assertEquals("nvarchar", rs.getMetaData().getColumnTypeName(4));
            rs.next();
            assertNull(rs.getObject(3));
            assertEquals(5, rs.getInt(5), "a sparse column holds values like any nullable one");
            rs.next();
            assertEquals(42, rs.getInt(3));
            assertEquals("ABC", rs.getString(4));
            assertNull(rs.getObject(5));
        }
        assertEquals(271, refused(c, "INSERT INTO dbo.calc (a, b) VALUES (1, 2)").getErrorCode());
        assertEquals(271, refused(c, "UPDATE dbo.calc SET u = N'x'").getErrorCode());
        Map<String, Map<String, Object>> cols = columns("calc");
        assertEquals("int", cols.get("b").get("TYPE_NAME"));
        assertEquals("YES", cols.get("b").get("IS_GENERATEDCOLUMN"));
        assertEquals("NO", cols.get("a").get("IS_GENERATEDCOLUMN"));
        assertEquals("nvarchar", cols.get("u").get("TYPE_NAME"));
        assertEquals(20, cols.get("u").get("COLUMN_SIZE"));
        assertEquals(List.of(1, 2, 3, 4, 5), cols.values().stream().map(r -> r.get("ORDINAL_POSITION")).toList());
        assertEquals((short) 1, cols.get("x").get("SS_IS_SPARSE"));
        assertEquals((short) 0, cols.get("a").get("SS_IS_SPARSE"));
        assertEquals(1, cols.get("x").get("NULLABLE"));
    }

    @Test
    void cdcCapturesTheseTypesAndTheConversionsReadTheChangeTable() throws Exception {
        run("CREATE TABLE dbo.assets (id int NOT NULL PRIMARY KEY, node hierarchyid, geo geography, at_time time(7), "
            + "ver rowversion, doc xml, twice AS (id * 2), v sql_variant)");
        run("EXEC sys.sp_cdc_enable_db",
            "EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'assets', @role_name = NULL");
        byte[] p = point(13.4, 52.5, ByteOrder.LITTLE_ENDIAN);
        run("INSERT INTO dbo.assets (id, node, geo, at_time, doc, v) VALUES (1, hierarchyid::Parse('/1/3/'), "
            + "geography::STGeomFromWKB(" + hex(p) + ", 4326), '23:59:59.9999999', N'<a>1</a>', 1.5)");
        run("INSERT INTO dbo.assets (id) VALUES (2)");
        run("UPDATE dbo.assets SET at_time = '00:00:00', node = hierarchyid::GetRoot(), v = N'x' WHERE id = 1");
        List<Object[]> source = rows("SELECT ver, twice FROM dbo.assets WHERE id = 1");
        assertEquals(2, source.get(0)[1]);
        String select = "SELECT [__$operation], [id], CAST([node] AS nvarchar(4000)) AS [node], [geo].STAsBinary() "
            + "AS [geo], [geo].STSrid AS [geo__srid], [at_time], [ver], [doc], [twice], CAST([v] AS nvarchar(4000)) AS "
            + "[v], CAST(SQL_VARIANT_PROPERTY([v], 'BaseType') AS nvarchar(128)) AS [v__type] "
            + "FROM [cdc].[dbo_assets_CT] "
            + "ORDER BY [__$start_lsn], [__$seqval], [__$operation]";
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(select)) {
            assertEquals("binary", rs.getMetaData().getColumnTypeName(7), "timestamp is binary(8) in a change table");
            assertEquals("time", rs.getMetaData().getColumnTypeName(6));
            assertEquals("xml", rs.getMetaData().getColumnTypeName(8));
            assertEquals("int", rs.getMetaData().getColumnTypeName(9));
            rs.next();
            assertNull(rs.getObject(9), "a computed column is in the change table, always NULL (as on SQL Server)");
            assertEquals("1.5", rs.getString(10));
            assertEquals("numeric", rs.getString(11));
            assertEquals(2, rs.getInt(1));
            assertEquals("/1/3/", rs.getString(3));
            assertArrayEquals(p, rs.getBytes(4));
            assertEquals(4326, rs.getInt(5));
            assertEquals(LocalTime.parse("23:59:59.9999999"), rs.getObject(6, LocalTime.class));
            byte[] inserted = rs.getBytes(7);
            assertEquals(8, inserted.length);
            assertEquals("<a>1</a>", rs.getString(8));
            rs.next();
            assertEquals(2, rs.getInt(1));
            assertEquals(2, rs.getInt(2));
            assertNull(rs.getString(3));
            assertNull(rs.getBytes(4));
            assertNull(rs.getObject(5));
            assertNull(rs.getObject(6, LocalTime.class));
            assertNull(rs.getString(8));
            rs.next();
            assertEquals(3, rs.getInt(1), "before image");
            assertEquals("/1/3/", rs.getString(3));
            assertEquals("numeric", rs.getString(11));
            assertArrayEquals(inserted, rs.getBytes(7));
            rs.next();
            assertEquals(4, rs.getInt(1), "after image");
            assertEquals("/", rs.getString(3));
            assertEquals("x", rs.getString(10));
            assertEquals("nvarchar", rs.getString(11), "an UPDATE sets the base type too");
            assertEquals(LocalTime.MIDNIGHT, rs.getObject(6, LocalTime.class));
            assertArrayEquals((byte[]) source.get(0)[0], rs.getBytes(7), "the after image carries the new rowversion");
            assertTrue(new BigInteger(1, rs.getBytes(7)).compareTo(new BigInteger(1, inserted)) > 0);
            assertArrayEquals(p, rs.getBytes(4));
            assertNull(rs.getObject(9));
            assertFalse(rs.next());
        }
    }

    @Test
    void changeTrackingJoinsReadTheConversionsFromTheSourceTable() throws Exception {
        run("CREATE TABLE dbo.tracked (id int NOT NULL PRIMARY KEY, node hierarchyid, shape geometry, ver rowversion, "
            + "v sql_variant)");
        run("ALTER DATABASE [shop] SET CHANGE_TRACKING = ON (CHANGE_RETENTION = 2 DAYS, AUTO_CLEANUP = ON)",
            "ALTER TABLE [dbo].[tracked] ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF)");
        long from = ((Number) rows("SELECT CHANGE_TRACKING_CURRENT_VERSION()").get(0)[0]).longValue();
        byte[] p = point(5, 6, ByteOrder.LITTLE_ENDIAN);
        run("INSERT INTO dbo.tracked (id, node, shape, v) VALUES (1, hierarchyid::Parse('/2/'), "
            + "geometry::STGeomFromWKB(" + hex(p) + ", 0), N'x')", "INSERT INTO dbo.tracked (id) VALUES (2)");
        run("DELETE FROM dbo.tracked WHERE id = 2");
        String changes = "SELECT [ct].[SYS_CHANGE_OPERATION], [ct].[id], CAST([t].[node] AS nvarchar(4000)) AS [node], "
            + "[t].[shape].STAsBinary() AS [shape], [t].[shape].STSrid AS [shape__srid], [t].[ver], "
            + "CAST([t].[v] AS nvarchar(4000)) AS [v], CAST(SQL_VARIANT_PROPERTY([t].[v], 'BaseType') AS nvarchar(128)) "
            + "AS [v__type] FROM CHANGETABLE(CHANGES [dbo].[tracked], ?) AS [ct] LEFT OUTER JOIN [dbo].[tracked] AS [t] "
            + "ON [t].[id] = [ct].[id] ORDER BY [ct].[id]";
        try (PreparedStatement ps = c.prepareStatement(changes)) {
            ps.setLong(1, from);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertEquals("I", rs.getString(1));
                assertEquals("/2/", rs.getString(3));
                assertArrayEquals(p, rs.getBytes(4));
                assertEquals(0, rs.getInt(5));
                assertEquals(8, rs.getBytes(6).length);
                assertEquals("x", rs.getString(7));
                assertEquals("nvarchar", rs.getString(8));
                rs.next();
                assertEquals("D", rs.getString(1));
                assertEquals(2, rs.getInt(2));
                assertNull(rs.getString(3));
                assertNull(rs.getBytes(4));
                assertNull(rs.getObject(5));
                assertNull(rs.getBytes(6));
                assertFalse(rs.next());
            }
        }
    }
}
