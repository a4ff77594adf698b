package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.manifest.ValuePolicies;
import io.dpone.manifest.ValuePolicy;
import io.dpone.source.SourceConnections;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change-capture contract, run by {@link MssqlTwinCdcTest} against the SQL Server twin and by
 * {@link MssqlChangeIT} against a real server, with the real mssql-jdbc: a user enables capture as on SQL Server
 * ({@code sys.sp_cdc_enable_table}, {@code ALTER TABLE ... ENABLE CHANGE_TRACKING}), writes changes through the driver
 * (inserts, updates, deletes, primary-key moves, in transactions), and live ticks (the product's production SQL:
 * {@code sys.fn_cdc_*}, {@code CHANGETABLE(CHANGES ...)}, no test seam) materialize to exactly the source's final
 * state.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MssqlChangeContract {
    /** A SQL Server to run the contract on: a URL with its database (CDC enabled on it), a login, its password. */
    record Server(String url, String database, String user, String password) {
    }

    Server server;
    ConnectionContext ctx;
    Path passwordFile;
    ClickHouseEndpoint ch;

    @TempDir
    static Path home;

    @TempDir
    Path dir;

    /** Starts or names the server; called once. */
    abstract Server start() throws Exception;

    @BeforeAll
    void open() throws Exception {
        server = start();
        passwordFile = Files.writeString(home.resolve("password"), server.password());
        ctx = ConnectionContext.of(Map.of(TestEngines.SOURCE, new ContextEntry(TestEngines.SOURCE,
            ConnectionType.MSSQL, server.url(), server.user(), null, passwordFile.toString(), false, Map.of())),
            false);
        ch = TestEngines.clickhouse();
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("EXEC sys.sp_cdc_enable_db");
        }
    }

    @AfterAll
    void closeEngine() {
        if (ch != null) {
            ch.close();
        }
    }

    Connection connect() throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection(server.url(), server.user(), server.password());
    }

    /**
     * Inserts a marker row and waits (up to 120 s) until the capture job has written its insert: on a server the
     * job reads the log asynchronously; the twin captures at commit.
     */
    static void awaitCaptured(Connection c, String table, int marker) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo." + table
            + " (order_id, status, amount, note) VALUES (?, 'marker', 0, NULL)")) {
            ps.setInt(1, marker);
            ps.executeUpdate();
        }
        awaitMarker(c, table, marker);
    }

    /** Waits (up to 120 s) until the capture job has written the insert of row {@code marker} of {@code table}. */
    static void awaitMarker(Connection c, String table, int marker) {
        // a server's capture job reads the log asynchronously: there is nothing to wait on but its table
        io.dpone.testing.Await.until(java.time.Duration.ofSeconds(120), "the capture job to record the marker", () -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM cdc.[dbo_" + table + "_CT] "
                + "WHERE order_id = ? AND [__$operation] = 2")) {
                ps.setInt(1, marker);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1) > 0;
                }
            } catch (java.sql.SQLException e) {
                throw new AssertionError(e);
            }
        });
    }

    Connection source() {
        return SourceConnections.open(ctx.resolve(TestEngines.SOURCE, ConnectionType.MSSQL, "test"), "dpone-cdc");
    }

    static CdcRunOptions options(String backend, String table, String db, int maxEvents) {
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(backend)
            .pipelineName(table + "-live").sourceTable("dbo", table).targetDataset(db + "." + table + "_cdc")
            .uniqueKeys(List.of("order_id")).connections(TestEngines.SOURCE, "clickhouse_test").maxEvents(maxEvents)
            .build();
    }

    /** Random changes through the driver, in transactions of 1-4 statements; returns how many transactions. */
    static int writeChanges(Connection c, String table, int transactions, long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        c.setAutoCommit(false);
        List<Integer> existing = ids(c, table);
        int nextId = existing.isEmpty() ? 1000 : existing.get(existing.size() - 1) + 1;
        for (int t = 0; t < transactions; t++) {
            for (int s = 0, n = 1 + r.nextInt(4); s < n; s++) {
                List<Integer> ids = ids(c, table);
                int pick = r.nextInt(100);
                if (ids.isEmpty() || pick < 35) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO dbo." + table
                        + " (order_id, status, amount, note) VALUES (?, ?, ?, ?)")) {
                        ps.setInt(1, nextId++);
                        ps.setString(2, "new 😀");
                        ps.setBigDecimal(3, BigDecimal.valueOf(r.nextLong(-100_000_000, 100_000_000), 2));
                        ps.setString(4, r.nextBoolean() ? null : "note\t" + r.nextInt(1000));
                        ps.executeUpdate();
                    }
                } else {
                    int id = ids.get(r.nextInt(ids.size()));
                    String sql = pick < 75 ? "UPDATE dbo." + table + " SET status = ?, amount = amount + 1 WHERE order_id = ?"
                        : pick < 90 ? "DELETE FROM dbo." + table + " WHERE order_id = ? AND ? IS NOT NULL"
                        : "UPDATE dbo." + table + " SET status = ?, order_id = ? WHERE order_id = ?";
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        if (pick >= 75 && pick < 90) {
                            ps.setInt(1, id);
                            ps.setString(2, "x");
                        } else if (pick < 75) {
                            ps.setString(1, "s" + r.nextInt(10));
                            ps.setInt(2, id);
                        } else { // a primary-key move, to a key never used
                            ps.setString(1, "moved");
                            ps.setInt(2, nextId++);
                            ps.setInt(3, id);
                        }
                        ps.executeUpdate();
                    }
                }
            }
            c.commit();
        }
        c.setAutoCommit(true);
        return transactions;
    }

    static List<Integer> ids(Connection c, String table) throws Exception {
        List<Integer> ids = new ArrayList<>();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT order_id FROM dbo." + table + " ORDER BY order_id")) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }

    /** The source's rows as ClickHouse prints them: id, status, amount, note. */
    static List<List<String>> sourceRows(Connection c, String table) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
            "SELECT order_id, status, amount, note FROM dbo." + table + " ORDER BY order_id")) {
            while (rs.next()) {
                rows.add(java.util.Arrays.asList(String.valueOf(rs.getInt(1)), rs.getString(2),
                    rs.getBigDecimal(3).stripTrailingZeros().toPlainString(), rs.getString(4) == null ? "\\N" : rs.getString(4)));
            }
        }
        return rows;
    }

    static void createOrders(Connection c, String table) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute("IF OBJECT_ID('dbo." + table + "', 'U') IS NOT NULL DROP TABLE dbo." + table);
            st.execute("CREATE TABLE dbo." + table + " (order_id int NOT NULL PRIMARY KEY, status nvarchar(40) NOT NULL, "
                + "amount decimal(18,2) NOT NULL, note nvarchar(max) NULL)");
        }
    }

    /** One live tick of {@code o} on a fresh source connection; its report, red or green. */
    CdcRuntimeRunReport tick(CdcRunOptions o) {
        try (Connection src = source()) {
            return CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), src, ch, dir.resolve("spool")));
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** Ticks until one reads nothing new; returns that idle tick's report. */
    CdcRuntimeRunReport tickUntilCaughtUp(CdcRunOptions o) {
        for (int i = 0; i < 50; i++) {
            CdcRuntimeRunReport r = tick(o);
            assertTrue(r.passed(), String.valueOf(r.blockers()));
            if (!r.committed()) {
                return r;
            }
        }
        throw new AssertionError("ticks did not catch up");
    }

    List<List<String>> materialized(String db, String table) {
        var r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + "." + table + "_cdc",
            db + "." + table + "_current", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
        assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
        return ch.query("SELECT toString(order_id), status, toString(amount), ifNull(note, '\\\\N') FROM "
            + ClickHouseSql.table(db, table + "_current") + " ORDER BY toInt64(order_id)");
    }

    /**
     * Issue 29 item 5: the real-schema types through a CDC tick land in the typed serving table as a full refresh
     * lands them (the hierarchyid's path, the geography's WKB and SRID, time(7) ticks, the rowversion as the source
     * table's UInt64 although the change table holds binary(8), the server's xml text).
     */
    @Test
    void realSchemaTypesThroughACdcTickLandInTheTypedServingTable() throws Exception {
        String db = TestEngines.newDatabase("twin_cdc_types");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("IF OBJECT_ID('dbo.typed', 'U') IS NOT NULL DROP TABLE dbo.typed");
            st.execute("CREATE TABLE dbo.typed (order_id int NOT NULL PRIMARY KEY, node hierarchyid, "
                + "shift time(7), rv rowversion, resume xml, location geography, valid_to datetime2(7))");
            st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'typed', "
                + "@role_name = NULL");
            st.execute("INSERT INTO dbo.typed (order_id, node, shift, resume, location, valid_to) VALUES "
                + "(1, hierarchyid::Parse('/1/'), '23:59:59.9999999', N'<r a=\"1\">x</r>', "
                + "geography::STGeomFromText('POINT(-122.35 47.65)', 4326), '2299-12-31 23:59:59.9999999')");
            st.execute("INSERT INTO dbo.typed (order_id, node, shift, resume, location, valid_to) VALUES "
                + "(2, hierarchyid::GetRoot(), '00:00:00.0000001', NULL, NULL, NULL)");
            st.execute("UPDATE dbo.typed SET node = hierarchyid::Parse('/1/3/'), shift = '12:00:00' WHERE order_id = 2");
            st.execute("INSERT INTO dbo.typed (order_id, node) VALUES (-1, NULL)"); // the capture marker
            awaitMarker(c, "typed", -1);
            tickUntilCaughtUp(options(SqlServerCdcReader.BACKEND, "typed", db, 25));
            var r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".typed_cdc",
                db + ".typed_current", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
            assertEquals(true, r.get("passed"), String.valueOf(r.get("blockers")));
            List<List<String>> expected = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT order_id, CAST(node AS nvarchar(4000)), shift, rv, resume, "
                + "location.AsBinaryZM(), location.STSrid, valid_to FROM dbo.typed ORDER BY order_id")) {
                while (rs.next()) {
                    java.time.LocalTime t = rs.getObject(3, java.time.LocalTime.class);
                    byte[] wkb = rs.getBytes(6);
                    java.time.LocalDateTime to = rs.getObject(8, java.time.LocalDateTime.class);
                    expected.add(java.util.Arrays.asList(rs.getString(1), rs.getString(2) == null ? "\\N" : rs.getString(2),
                        t == null ? "\\N" : t.format(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSSS")),
                        Long.toUnsignedString(java.nio.ByteBuffer.wrap(rs.getBytes(4)).getLong()),
                        rs.getString(5) == null ? "\\N" : rs.getString(5),
                        wkb == null ? "\\N" : java.util.HexFormat.of().withUpperCase().formatHex(wkb),
                        rs.getString(7) == null ? "\\N" : rs.getString(7),
                        to == null ? "\\N" : to.format(java.time.format.DateTimeFormatter.ofPattern(
                            "yyyy-MM-dd HH:mm:ss.SSSSSSS"))));
                }
            }
            assertEquals(expected, ch.query("SELECT toString(order_id), ifNull(node, '\\\\N'), "
                + "ifNull(toString(shift), '\\\\N'), toString(rv), ifNull(resume, '\\\\N'), "
                + "ifNull(hex(location), '\\\\N'), ifNull(toString(location__srid), '\\\\N'), "
                + "ifNull(toString(valid_to), '\\\\N') FROM " + ClickHouseSql.table(db, "typed_current")
                + " ORDER BY order_id"));
        }
    }

    /** A validity table whose rows carry the usual sentinels ClickHouse cannot hold ({@code 0001-01-01}, {@code 9999-12-31}). */
    static void createValidity(Statement st, String table) throws Exception {
        st.execute("IF OBJECT_ID('dbo." + table + "', 'U') IS NOT NULL DROP TABLE dbo." + table);
        st.execute("CREATE TABLE dbo." + table + " (order_id int NOT NULL PRIMARY KEY, valid_from date NOT NULL, "
            + "valid_to datetime2(7) NULL, born date NULL)");
    }

    static void writeSentinels(Statement st, String table) throws Exception {
        st.execute("INSERT INTO dbo." + table + " VALUES (1, '2020-01-01', '9999-12-31 23:59:59.9999999', "
            + "'0001-01-01')");
        st.execute("INSERT INTO dbo." + table + " VALUES (2, '0001-01-01', NULL, '1950-05-05')");
        st.execute("INSERT INTO dbo." + table + " VALUES (3, '2021-01-01', '2022-01-01 10:00:00', NULL)");
    }

    /**
     * Issue 29 through CDC: a sentinel in a change refuses the tick naming the column and the option that moves it
     * (nothing applied, offset unchanged); with the stream's declared policies the same changes land clamped or
     * nulled, counted per column in the tick report; a policy naming no column, or clamping the unique key, is
     * refused before anything is read.
     */
    void sentinelsTakeTheStreamsDeclaredPolicy(String backend, String table, String db) {
        CdcRunOptions refusing = options(backend, table, db, 25);
        CdcRuntimeRunReport refused = tick(refusing);
        assertFalse(refused.passed() || refused.committed(), "a sentinel without a policy stops the tick");
        assertEquals("source.value_out_of_range", refused.blockers().get(0).code());
        String message = refused.blockers().get(0).message();
        assertTrue(message.contains("--value-policy"), message);
        assertFalse(message.contains("9999") || message.contains("0001"), "the blocker never carries the value");
        for (var stray : List.of(Map.of("nope", ValuePolicy.CLAMP), Map.of("order_id", ValuePolicy.CLAMP))) {
            CdcRunOptions bad = refusing.toBuilder().valuePolicies(new ValuePolicies(null, stray)).build();
            CdcRuntimeRunReport r = tick(bad);
            assertFalse(r.passed() || r.committed(), stray.toString());
            assertEquals("cdc_runtime.invalid_argument", r.blockers().get(0).code(), stray.toString());
            assertEquals("value_policy.columns." + stray.keySet().iterator().next(), r.blockers().get(0).subject());
        }
        CdcRunOptions declared = refusing.toBuilder().valuePolicies(new ValuePolicies(ValuePolicy.CLAMP,
            Map.of("born", ValuePolicy.NULL))).build();
        CdcRuntimeRunReport first = tick(declared);
        assertTrue(first.passed() && first.committed(), String.valueOf(first.blockers()));
        Map<String, String> counted = new java.util.TreeMap<>();
        first.valuePolicy().forEach(p -> counted.put(p.column(), p.policy() + ":" + p.changed()));
        assertEquals(Map.of("born", "null:1", "valid_from", "clamp:1", "valid_to", "clamp:1"), counted);
        tickUntilCaughtUp(declared);
        var m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + "." + table + "_cdc",
            db + "." + table + "_current", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
        assertEquals(true, m.get("passed"), String.valueOf(m.get("blockers")));
        assertEquals(List.of(
                List.of("1", "2020-01-01", "2299-12-31 23:59:59.9999999", "\\N"),
                List.of("2", "1900-01-01", "\\N", "1950-05-05"),
                List.of("3", "2021-01-01", "2022-01-01 10:00:00.0000000", "\\N")),
            ch.query("SELECT toString(order_id), toString(valid_from), ifNull(toString(valid_to), '\\\\N'), "
                + "ifNull(toString(born), '\\\\N') FROM " + ClickHouseSql.table(db, table + "_current")
                + " WHERE order_id > 0 ORDER BY order_id"));
    }

    @Test
    void sentinelsInCdcChangesTakeTheStreamsDeclaredPolicy() throws Exception {
        String db = TestEngines.newDatabase("twin_cdc_policy");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = connect(); Statement st = c.createStatement()) {
            createValidity(st, "validity");
            st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'validity', "
                + "@role_name = NULL");
            writeSentinels(st, "validity");
            st.execute("INSERT INTO dbo.validity VALUES (-1, '2020-01-01', NULL, NULL)"); // the capture marker
            awaitMarker(c, "validity", -1);
        }
        sentinelsTakeTheStreamsDeclaredPolicy(SqlServerCdcReader.BACKEND, "validity", db);
    }

    @Test
    void sentinelsInChangeTrackingChangesTakeTheStreamsDeclaredPolicy() throws Exception {
        String db = TestEngines.newDatabase("twin_ct_policy");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = connect(); Statement st = c.createStatement()) {
            createValidity(st, "validity_ct");
            changeTrackingOn(st);
            st.execute("ALTER TABLE dbo.validity_ct ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF)");
            writeSentinels(st, "validity_ct");
        }
        sentinelsTakeTheStreamsDeclaredPolicy(SqlServerChangeTrackingReader.BACKEND, "validity_ct", db);
    }

    /** Change Tracking on for the contract's database (already on: a server that ran the contract before). */
    void changeTrackingOn(Statement st) throws java.sql.SQLException {
        try {
            st.execute("ALTER DATABASE [" + server.database() + "] SET CHANGE_TRACKING = ON "
                + "(CHANGE_RETENTION = 2 DAYS, AUTO_CLEANUP = ON)");
        } catch (java.sql.SQLException e) {
            if (e.getErrorCode() != 5088) {
                throw e;
            }
        }
    }

    @Test
    void cdcTicksThroughTheDriverMaterializeTheSourcesFinalState() throws Exception {
        String db = TestEngines.newDatabase("twin_cdc");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = connect()) {
            createOrders(c, "orders");
            try (Statement st = c.createStatement()) {
                st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders', "
                    + "@role_name = NULL");
            }
            writeChanges(c, "orders", 40, 1);
            awaitCaptured(c, "orders", -1);
            CdcRunOptions o = options(SqlServerCdcReader.BACKEND, "orders", db, 25);
            tickUntilCaughtUp(o);
            writeChanges(c, "orders", 30, 2);
            awaitCaptured(c, "orders", -2);
            CdcRuntimeRunReport idle = tickUntilCaughtUp(o);
            assertEquals(0, idle.metrics().millisBehindSource(), "caught up: no lag behind the source");
            assertEquals(sourceRows(c, "orders"), materialized(db, "orders"));
        }
    }

    /**
     * Issue 31 item 3: a column added at the source reaches the log and the serving table through a second capture
     * instance, without stopping the stream: the ticks hand over at its start LSN and the checkpoint records it.
     */
    @Test
    void aColumnAddedThroughASecondCaptureInstanceArrivesWhileTheStreamRuns() throws Exception {
        String db = TestEngines.newDatabase("twin_ci");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = connect()) {
            createOrders(c, "orders_ci");
            try (Statement st = c.createStatement()) {
                st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders_ci', "
                    + "@role_name = NULL");
            }
            writeChanges(c, "orders_ci", 20, 3);
            awaitCaptured(c, "orders_ci", -1);
            CdcRunOptions o = options(SqlServerCdcReader.BACKEND, "orders_ci", db, 7);
            tickUntilCaughtUp(o);

            try (Statement st = c.createStatement()) {
                st.execute("ALTER TABLE dbo.orders_ci ADD channel nvarchar(20) NULL");
                st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders_ci', "
                    + "@role_name = NULL, @capture_instance = N'dbo_orders_ci_v2'");
                st.execute("UPDATE dbo.orders_ci SET channel = N'web' WHERE order_id % 2 = 0");
                st.execute("INSERT INTO dbo.orders_ci (order_id, status, amount, note, channel) VALUES "
                    + "(-3, N'new', 5.25, NULL, N'shop')");
            }
            writeChanges(c, "orders_ci", 10, 4);
            // a server's capture job writes the new instance's rows asynchronously: wait for a late insert there
            awaitCaptured(c, "orders_ci", -2);
            io.dpone.testing.Await.until(java.time.Duration.ofSeconds(120), "the new instance to capture", () -> {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM "
                    + "cdc.[dbo_orders_ci_v2_CT] WHERE order_id = -2 AND [__$operation] = 2")) {
                    rs.next();
                    return rs.getLong(1) > 0;
                } catch (java.sql.SQLException e) {
                    throw new AssertionError(e);
                }
            });
            tickUntilCaughtUp(o);
            assertEquals("dbo_orders_ci_v2", new io.dpone.cdc.clickhouse.ClickHouseOffsetStore(ch, db,
                io.dpone.cdc.runtime.ClickHouseCdcAdapters.OFFSETS_TABLE).load(o.stream()).orElseThrow()
                .captureInstance(), "the checkpoint records the instance it reads");
            assertEquals(sourceRows(c, "orders_ci"), materialized(db, "orders_ci"));
            List<List<String>> channels = new ArrayList<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT order_id, channel FROM "
                + "dbo.orders_ci ORDER BY order_id")) {
                while (rs.next()) {
                    channels.add(List.of(String.valueOf(rs.getInt(1)), rs.getString(2) == null ? "\\N"
                        : rs.getString(2)));
                }
            }
            assertTrue(channels.contains(List.of("-3", "shop")) && channels.stream().anyMatch(r -> r.get(1)
                .equals("web")), String.valueOf(channels));
            assertEquals(channels, ch.query("SELECT toString(order_id), ifNull(channel, '\\\\N') FROM "
                + ClickHouseSql.table(db, "orders_ci_current") + " ORDER BY toInt64(order_id)"),
                "the added column arrived in the serving table");
        }
    }

    /** How many capture instances named {@code name} the server lists. */
    static long instances(Connection c, String name) throws java.sql.SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM cdc.change_tables WHERE capture_instance "
            + "= ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Issue 31 item 3, --allow-capture-instance-ddl: after an ALTER TABLE ... ADD, a stream without the flag reads its
     * only capture instance on and creates nothing; with it the tick runs sys.sp_cdc_enable_table through the driver
     * (the call escape, every value a parameter), the new instance {@code <instance>_v2} captures the column, and the
     * stream hands over to it: the serving table gets the column's values.
     */
    @Test
    void withAllowCaptureInstanceDdlTheTickCreatesTheSecondCaptureInstanceThroughTheDriver() throws Exception {
        String db = TestEngines.newDatabase("twin_ci_ddl");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = connect()) {
            createOrders(c, "orders_ddl");
            try (Statement st = c.createStatement()) {
                st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders_ddl', "
                    + "@role_name = NULL");
            }
            writeChanges(c, "orders_ddl", 15, 5);
            awaitCaptured(c, "orders_ddl", -1);
            CdcRunOptions o = options(SqlServerCdcReader.BACKEND, "orders_ddl", db, 6);
            tickUntilCaughtUp(o);

            try (Statement st = c.createStatement()) {
                st.execute("ALTER TABLE dbo.orders_ddl ADD channel nvarchar(20) NULL");
            }
            tickUntilCaughtUp(o);
            assertEquals(0, instances(c, "dbo_orders_ddl_v2"), "nothing is created without the flag");

            CdcRunOptions allowed = o.toBuilder().allowCaptureInstanceDdl(true).build();
            tickUntilCaughtUp(allowed);
            assertEquals(1, instances(c, "dbo_orders_ddl_v2"), "the tick created the second capture instance");
            try (Statement st = c.createStatement()) {
                st.execute("UPDATE dbo.orders_ddl SET channel = N'web' WHERE order_id % 2 = 0");
                st.execute("INSERT INTO dbo.orders_ddl (order_id, status, amount, note, channel) VALUES "
                    + "(-3, N'new', 5.25, NULL, N'shop')");
            }
            writeChanges(c, "orders_ddl", 8, 6);
            awaitCaptured(c, "orders_ddl", -2);
            io.dpone.testing.Await.until(java.time.Duration.ofSeconds(120), "the new instance to capture", () -> {
                try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM "
                    + "cdc.[dbo_orders_ddl_v2_CT] WHERE order_id = -2 AND [__$operation] = 2")) {
                    rs.next();
                    return rs.getLong(1) > 0;
                } catch (java.sql.SQLException e) {
                    throw new AssertionError(e);
                }
            });
            tickUntilCaughtUp(allowed);
            assertEquals(1, instances(c, "dbo_orders_ddl_v2"));
            assertEquals(0, instances(c, "dbo_orders_ddl_v3"), "created once");
            assertEquals("dbo_orders_ddl_v2", new io.dpone.cdc.clickhouse.ClickHouseOffsetStore(ch, db,
                io.dpone.cdc.runtime.ClickHouseCdcAdapters.OFFSETS_TABLE).load(o.stream()).orElseThrow()
                .captureInstance(), "the checkpoint records the instance the tick created");
            assertEquals(sourceRows(c, "orders_ddl"), materialized(db, "orders_ddl"));
            List<List<String>> channels = new ArrayList<>();
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT order_id, channel FROM "
                + "dbo.orders_ddl ORDER BY order_id")) {
                while (rs.next()) {
                    channels.add(List.of(String.valueOf(rs.getInt(1)), rs.getString(2) == null ? "\\N"
                        : rs.getString(2)));
                }
            }
            assertTrue(channels.contains(List.of("-3", "shop")), String.valueOf(channels));
            assertEquals(channels, ch.query("SELECT toString(order_id), ifNull(channel, '\\\\N') FROM "
                + ClickHouseSql.table(db, "orders_ddl_current") + " ORDER BY toInt64(order_id)"),
                "the added column arrived in the serving table");
        }
    }

    @Test
    void aSnapshotHandOverWhileTheDriverWritesLosesAndRepeatsNothing() throws Exception {
        String db = TestEngines.newDatabase("twin_handover");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = connect()) {
            createOrders(c, "orders_ho");
            try (Statement st = c.createStatement()) {
                st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders_ho', "
                    + "@role_name = NULL");
            }
            writeChanges(c, "orders_ho", 60, 5);
        }
        Path manifest = io.dpone.testing.Manifests.write(dir.resolve("orders_ho.batch.yaml"), """
            name: orders-ho
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: orders_ho}
              options: {fetch_size: 20, chunk_rows: 20}
            sink:
              type: clickhouse
              connection_ref: clickhouse_test
              table: {schema: %s, name: orders_ho_snapshot}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options: {lineage: false}
            cdc:
              backend: mssql_cdc
              pipeline_name: orders_ho-live
              log_dataset: %s.orders_ho_cdc
              unique_keys: [order_id]
            """.formatted(TestEngines.SOURCE, db, db, db));
        ConnectionContext both = ConnectionContext.of(Map.of(TestEngines.SOURCE, ctx.entry(TestEngines.SOURCE)
            .orElseThrow(), "clickhouse_test", new ContextEntry("clickhouse_test", ConnectionType.CLICKHOUSE, null,
            null, null, null, true, Map.of("path", TestEngines.clickHousePath().toString()))), false);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger during = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CompletableFuture<Void> writer = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try (Connection w = connect()) {
                for (long seed = 100; !stop.get(); seed++) {
                    writeChanges(w, "orders_ho", 1, seed);
                    during.incrementAndGet();
                }
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        io.dpone.route.RunReport report;
        try {
            report = io.dpone.Dpone.run(manifest, "ho-1", both, io.dpone.route.ProgressListener.NONE,
                dir.resolve("state"));
        } finally {
            stop.set(true);
        }
        writer.get(120, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(report.passed(), String.valueOf(report.blockers()));
        assertTrue(report.notes().stream().anyMatch(n -> n.startsWith("cdc hand-over: stream orders_ho-live")),
            String.valueOf(report.notes()));
        assertTrue(during.get() > 0, "the driver committed changes while the snapshot was read");
        try (Connection c = connect()) {
            awaitCaptured(c, "orders_ho", -3);
            CdcRuntimeRunReport idle = tickUntilCaughtUp(options(SqlServerCdcReader.BACKEND, "orders_ho", db, 500));
            assertEquals(0, idle.counts().read());
            assertEquals(sourceRows(c, "orders_ho"), materialized(db, "orders_ho"),
                "snapshot plus the changes after its position is the source, row for row");
        }
    }

    @Test
    void changeTrackingTicksThroughTheDriverMaterializeTheSourcesFinalState() throws Exception {
        String db = TestEngines.newDatabase("twin_ct");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = connect()) {
            createOrders(c, "orders_ct");
            try (Statement st = c.createStatement()) {
                changeTrackingOn(st);
                st.execute("ALTER TABLE dbo.orders_ct ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF)");
            }
            writeChanges(c, "orders_ct", 40, 3);
            CdcRunOptions o = options(SqlServerChangeTrackingReader.BACKEND, "orders_ct", db, 25);
            tickUntilCaughtUp(o);
            writeChanges(c, "orders_ct", 30, 4);
            tickUntilCaughtUp(o);
            assertEquals(sourceRows(c, "orders_ct"), materialized(db, "orders_ct"));
        }
    }

    /**
     * The promotion bundle's checks (issue 31) on the server, with the catalogue calls the readers make: a captured
     * table keyed by its primary key passes; a table without CDC and a sql_variant without its policy each give
     * their typed blocker, at once; Change Tracking is checked per table and keyed by the primary key only.
     */
    @Test
    void thePromotionBundleChecksCaptureKeysAndTypesOnTheServer() throws Exception {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            for (String t : List.of("bundled", "unbundled", "bundled_ct")) {
                st.execute("IF OBJECT_ID('dbo." + t + "', 'U') IS NOT NULL DROP TABLE dbo." + t);
            }
            st.execute("CREATE TABLE dbo.bundled (order_id int NOT NULL PRIMARY KEY, code nvarchar(20) NOT NULL, "
                + "status nvarchar(40), amount decimal(18,2), CONSTRAINT ux_bundled_code UNIQUE (code))");
            st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'bundled', "
                + "@role_name = NULL");
            st.execute("CREATE TABLE dbo.unbundled (order_id int NOT NULL PRIMARY KEY, status nvarchar(40), "
                + "v sql_variant)");
            changeTrackingOn(st);
            st.execute("CREATE TABLE dbo.bundled_ct (order_id int NOT NULL PRIMARY KEY, status nvarchar(40))");
            st.execute("ALTER TABLE dbo.bundled_ct ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF)");
        }
        ConnectionContext withSink = ConnectionContext.of(Map.of(TestEngines.SOURCE,
            ctx.entry(TestEngines.SOURCE).orElseThrow(), TestEngines.CLICKHOUSE, new ContextEntry(TestEngines.CLICKHOUSE,
                ConnectionType.CLICKHOUSE, null, null, null, null, true,
                Map.of("path", TestEngines.clickHousePath().toString()))), false);
        java.util.function.Function<String, String> reach = alias -> io.dpone.serve.ConnectionReach.reach(withSink,
            alias, "sink");
        java.util.function.BiFunction<CdcRunOptions, List<String>, io.dpone.cdc.bundle.CdcPromotionBundle> bundle =
            (o, keys) -> io.dpone.cdc.bundle.PromotionChecks.build(o.toBuilder().uniqueKeys(keys)
                .sinkConnectionId(TestEngines.CLICKHOUSE).build(), withSink, reach);
        var green = bundle.apply(options(SqlServerCdcReader.BACKEND, "bundled", "analytics", 100),
            List.of("order_id"));
        assertTrue(green.passed(), String.valueOf(green.blockers()));
        assertEquals("dbo_bundled", green.source().get("capture_instance"));
        assertEquals(4, ((List<?>) green.source().get("captured_columns")).size());
        // a key that is not the primary key sends the check to the unique indexes (getIndexInfo, sp_statistics,
        // which the twin does not answer): the H2 emulation's CdcPromotionBundleTest covers that path
        var red = bundle.apply(options(SqlServerCdcReader.BACKEND, "unbundled", "analytics", 100),
            List.of("order_id"));
        assertEquals(java.util.Set.of("cdc_runtime.source_not_enabled", "source.type_unsupported"),
            red.blockers().stream().map(io.dpone.error.Blocker::code).collect(java.util.stream.Collectors.toSet()));
        assertEquals("dbo.unbundled.v", red.blockers().stream().filter(b -> b.code().equals(
            "source.type_unsupported")).findFirst().orElseThrow().subject());
        var ctByStatus = bundle.apply(options(SqlServerChangeTrackingReader.BACKEND, "bundled_ct", "analytics", 100),
            List.of("status"));
        assertEquals(List.of("cdc_bundle.unique_key_mismatch"), ctByStatus.blockers().stream()
            .map(io.dpone.error.Blocker::code).toList());
        var ct = bundle.apply(options(SqlServerChangeTrackingReader.BACKEND, "bundled_ct", "analytics", 100),
            List.of("order_id"));
        assertTrue(ct.passed(), String.valueOf(ct.blockers()));
        var ctOff = bundle.apply(options(SqlServerChangeTrackingReader.BACKEND, "bundled", "analytics", 100),
            List.of("order_id"));
        assertEquals(List.of("cdc_runtime.source_not_enabled"), ctOff.blockers().stream()
            .map(io.dpone.error.Blocker::code).toList());
    }
}
