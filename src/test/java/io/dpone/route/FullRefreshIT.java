package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.quality.GateResult;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.DateType;
import io.dpone.source.types.TimestampType;
import io.dpone.source.types.TypeMapper;
import io.dpone.source.types.UuidType;
import io.dpone.source.types.ValueOutOfRangeException;
import io.dpone.testing.ItServers;
import io.dpone.testing.Manifests;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The full refresh of {@link FullRefreshRouteTest} against real engines: SQL Server 2022 read through mssql-jdbc and
 * a ClickHouse 25.8 server over HTTP. Credentials reach dpone only through {@code password_file}. Skipped when there is neither a
 * server named by the {@code DPONE_IT_*} variables nor a Docker engine ({@link ItServers}).
 */
class FullRefreshIT {
    static final String SOURCE = "mssql_it";
    static final String SINK = "clickhouse_it";
    static final String SOURCE_DB = "dpone_it";
    static final long ROWS = 20_000;


    /**
     * The ClickHouse type of every demo column, as {@link TypeMapper} and the type families derive it from
     * mssql-jdbc's metadata (DemoSalesGenerator's DDL), in table order.
     */
    static final Map<String, String> EXPECTED_TYPES = expectedTypes();

    @TempDir
    static Path dir;
    static String sourceUrl;
    static ConnectionContext context;
    static ClickHouseEndpoint ch;

    private static Map<String, String> expectedTypes() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("sale_id", "Int64");
        m.put("store_id", "Nullable(Int32)");
        m.put("channel_code", "Nullable(UInt8)");
        m.put("region_code", "Nullable(Int16)");
        m.put("quantity", "Nullable(Decimal(18, 4))");
        m.put("amount", "Nullable(Decimal(38, 10))");
        m.put("unit_price", "Nullable(Float64)");
        m.put("discount", "Nullable(Float32)");
        m.put("customer_name", "Nullable(String)");
        m.put("note", "Nullable(String)");
        m.put("status", "String");
        m.put("sale_date", "Nullable(Date32)");
        m.put("created_at", "Nullable(DateTime64(7, 'UTC'))");
        m.put("row_guid", "Nullable(UUID)");
        m.put("is_returned", "Nullable(Bool)");
        return m;
    }

    @BeforeAll
    static void setUp() throws Exception {
        String base = ItServers.mssql().url();
        try (Connection master = mssql(base); Statement st = master.createStatement()) {
            st.execute("IF DB_ID(N'" + SOURCE_DB + "') IS NULL CREATE DATABASE " + SOURCE_DB);
        }
        sourceUrl = base + ";databaseName=" + SOURCE_DB;
        try (Connection c = mssql(sourceUrl)) {
            DemoSalesGenerator.seed(c, ROWS, 42);
        }

        Path mssqlSecret = secret("mssql.password", ItServers.mssql().password());
        Path clickhouseSecret = secret("clickhouse.password", ItServers.clickhouse().password());
        context = ConnectionContext.of(Map.of(
            SOURCE, new ContextEntry(SOURCE, ConnectionType.MSSQL, sourceUrl, ItServers.mssql().user(), null,
                mssqlSecret.toString(), false, Map.of()),
            SINK, new ContextEntry(SINK, ConnectionType.CLICKHOUSE,
                ItServers.clickhouse().url(), ItServers.clickhouse().user(),
                null, clickhouseSecret.toString(), false, Map.of())), false);
        ch = ServerClickHouseEndpoint.open(context.resolve(SINK, ConnectionType.CLICKHOUSE, "it"));
    }

    @AfterAll
    static void tearDown() {
        if (ch != null) {
            ch.close();
        }
    }

    private static Connection mssql(String url) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", ItServers.mssql().user());
        p.setProperty("password", ItServers.mssql().password());
        return DriverManager.getConnection(url, p);
    }

    private static Path secret(String name, String value) throws IOException {
        Path file = dir.resolve("secrets").resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, value + "\n", StandardCharsets.UTF_8);
        return file;
    }

    private static Path manifest(String sourceTable, String database) {
        return Manifests.write(dir.resolve("manifests").resolve(database + ".batch.yaml"), """
            name: it-full-refresh
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: %s}
              options: {fetch_size: 2000, chunk_rows: 7000}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: sales}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options:
                lineage: false
                order_by: [sale_id]
            quality:
              typed_hash: full
            """.formatted(SOURCE, sourceTable, SINK, database, database));
    }

    private static RunReport run(String sourceTable, String database, String runId) {
        return Dpone.run(manifest(sourceTable, database), runId, context, ProgressListener.NONE,
            dir.resolve("state"));
    }

    private static long count(String database, String where) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(database, "sales") + where)
            .get(0).get(0));
    }

    private static List<String> tables(String database) {
        return ch.query("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.literal(database)
            + " ORDER BY name").stream().map(r -> r.get(0)).toList();
    }

    private static void assertGreen(RunReport r) {
        assertTrue(r.passed(), () -> "run " + r.runId() + " blocked: " + r.blockers());
        assertEquals(ROWS, r.sourceRows());
        assertEquals(ROWS, r.loadedRows());
        assertTrue(r.chunks() >= 3, "7000-row chunks must split 20000 rows");
        assertFalse(r.gates().isEmpty(), "a passed run must report its gates");
        assertTrue(r.gates().stream().allMatch(g -> g.status().equals("passed")),
            () -> "every gate must pass: " + r.gates().stream().map(g -> g.gate() + "=" + g.status()).toList());
        assertTrue(r.gates().stream().map(GateResult::gate).toList().containsAll(
            List.of("row_count", "null_counts", "typed_hash", "metadata_columns", "cleanup_audit")),
            () -> "gates: " + r.gates().stream().map(GateResult::gate).toList());
    }

    @Test
    void fullRefreshLoadsEveryRowAndTheSecondRunReplacesTheFirstAtomically() {
        String db = "it_full";
        RunReport first = run("sales", db, "it-run-1");
        assertGreen(first);
        assertEquals(ROWS, count(db, " WHERE " + MetadataColumns.RUN_ID + " = 'it-run-1'"));
        assertEquals(List.of("sales"), tables(db), "no staging table may outlive the run");

        RunReport second = run("sales", db, "it-run-2");
        assertGreen(second);
        assertEquals(ROWS, count(db, ""));
        assertEquals(0, count(db, " WHERE " + MetadataColumns.RUN_ID + " != 'it-run-2'"),
            "the second run must replace the whole target, not append to it");
        assertEquals(List.of("sales"), tables(db), "no staging table may outlive the run");
        String[] spooled = dir.resolve("state").resolve("spool").toFile().list();
        assertTrue(spooled == null || spooled.length == 0, "spool must be empty");
    }

    @Test
    void targetColumnTypesFollowTheTypeMapperOnARealSqlServer() {
        String db = "it_types";
        assertGreen(run("sales", db, "it-types-1"));
        List<List<String>> rows = ch.query("SELECT name, type FROM system.columns WHERE database = "
            + ClickHouseSql.literal(db) + " AND table = 'sales' ORDER BY position");
        Map<String, String> actual = new LinkedHashMap<>();
        rows.forEach(r -> actual.put(r.get(0), r.get(1)));
        Map<String, String> expected = new LinkedHashMap<>(EXPECTED_TYPES);
        expected.put(MetadataColumns.RUN_ID, "String");
        expected.put(MetadataColumns.LOAD_ID, "String");
        expected.put(MetadataColumns.LOADED_AT, "DateTime64(3, 'UTC')");
        expected.put(MetadataColumns.EXTRACTED_AT, "DateTime64(3, 'UTC')");
        assertEquals(expected, actual);
    }

    /**
     * What mssql-jdbc's DatabaseMetaData.getColumns reports for each demo column, and that {@link TypeMapper} maps
     * exactly that to the expected ClickHouse type. A failure here names the driver's metadata, so a driver change
     * (e.g. DECIMAL_DIGITS of datetime2, the JDBC code of uniqueidentifier) shows up precisely.
     */
    @Test
    void driverMetadataMapsAsTheTypeMapperExpects() throws SQLException {
        Map<String, String> mapped = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        try (Connection c = mssql(sourceUrl)) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getColumns(null, "dbo", "sales", null)) {
                while (rs.next()) {
                    String name = rs.getString("COLUMN_NAME");
                    int jdbcType = rs.getInt("DATA_TYPE");
                    String typeName = rs.getString("TYPE_NAME");
                    int size = rs.getInt("COLUMN_SIZE");
                    int digits = rs.getInt("DECIMAL_DIGITS");
                    boolean nullable = rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls;
                    String described = "DATA_TYPE=" + jdbcType + " TYPE_NAME=" + typeName + " COLUMN_SIZE=" + size
                        + " DECIMAL_DIGITS=" + digits + " NULLABLE=" + nullable;
                    metadata.put(name, described);
                    mapped.put(name, TypeMapper.map(jdbcType, typeName, size, digits).map(ColumnType::clickHouseType)
                        .map(t -> nullable ? "Nullable(" + t + ")" : t).orElse("<unsupported: " + described + ">"));
                }
            }
        }
        String report = metadata.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
            .collect(Collectors.joining("\n"));
        assertEquals(EXPECTED_TYPES, mapped, () -> "mssql-jdbc metadata:\n" + report);
        // the facts the mapping rests on, so a driver change is named precisely
        assertEquals("DATA_TYPE=" + Types.TIMESTAMP + " TYPE_NAME=datetime2 COLUMN_SIZE=27 DECIMAL_DIGITS=7 NULLABLE=true",
            metadata.get("created_at"), report);
        assertTrue(metadata.get("sale_date").startsWith("DATA_TYPE=" + Types.DATE + " TYPE_NAME=date "), report);
        assertTrue(metadata.get("row_guid").contains("TYPE_NAME=uniqueidentifier"), report);
        assertTrue(metadata.get("channel_code").startsWith("DATA_TYPE=" + Types.TINYINT + " "), report);
        assertTrue(metadata.get("is_returned").startsWith("DATA_TYPE=" + Types.BIT + " "), report);
    }

    /** The value readers against the driver's actual getObject results, not H2's. */
    @Test
    void driverValuesReadAsTheTypeFamiliesExpect() throws SQLException {
        String guid = "6F9619FF-8B86-D011-B42D-00C04FC964FF";
        try (Connection c = mssql(sourceUrl); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT CAST('" + guid + "' AS UNIQUEIDENTIFIER), "
                 + "CAST('2024-02-29 12:34:56.1234567' AS DATETIME2(7)), CAST('1850-01-01' AS DATE), "
                 + "CAST('1900-01-01' AS DATE)")) {
            assertTrue(rs.next());
            // mssql-jdbc returns uniqueidentifier from getObject as its canonical (upper-case) text
            assertEquals(UUID.fromString(guid), assertInstanceOf(UUID.class, new UuidType().read(rs, 1)));
            assertEquals(LocalDateTime.of(2024, 2, 29, 12, 34, 56, 123_456_700),
                new TimestampType(7, false).read(rs, 2));
            assertThrows(ValueOutOfRangeException.class, () -> new DateType().read(rs, 3));
            assertEquals(DateType.MIN, new DateType().read(rs, 4));
        }
    }

    @Test
    void outOfRangeDateFailsTheRunAndLeavesTheTargetUntouched() throws SQLException {
        String db = "it_bad";
        try (Connection c = mssql(sourceUrl); Statement st = c.createStatement()) {
            st.execute("IF OBJECT_ID('dbo.sales_bad', 'U') IS NOT NULL DROP TABLE dbo.sales_bad");
            st.execute("SELECT * INTO dbo.sales_bad FROM dbo.sales");
        }
        assertGreen(run("sales_bad", db, "bad-1"));

        try (Connection c = mssql(sourceUrl); Statement st = c.createStatement()) {
            assertEquals(1, st.executeUpdate("UPDATE dbo.sales_bad SET sale_date = '1850-01-01' WHERE sale_id = 15000"));
        }
        RunReport bad = run("sales_bad", db, "bad-2");
        assertFalse(bad.passed());
        assertEquals(List.of("source.value_out_of_range"), bad.blockers().stream().map(Blocker::code).toList(),
            () -> bad.blockers().toString());
        assertEquals("source.columns.sale_date", bad.blockers().get(0).subject());
        assertEquals(ROWS, count(db, ""));
        assertEquals(ROWS, count(db, " WHERE " + MetadataColumns.RUN_ID + " = 'bad-1'"),
            "a failed run must leave the published target as it was");
        assertEquals(List.of("sales"), tables(db), "the failed run's staging table must be dropped");
    }
}
