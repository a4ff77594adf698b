package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.dpone.source.SourceConnections;
import io.dpone.testing.TestEngines;
import io.dpone.testing.mssql.MssqlTwinProcess;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * Live CDC and Change Tracking ticks through the SQL Server twin with the real mssql-jdbc: a user enables capture as
 * on SQL Server ({@code sys.sp_cdc_enable_table}, {@code ALTER TABLE ... ENABLE CHANGE_TRACKING}), writes changes
 * through the driver (inserts, updates, deletes, primary-key moves, in transactions), and the ticks (the product's
 * production SQL: {@code sys.fn_cdc_*}, {@code CHANGETABLE(CHANGES ...)}, no test seam) materialize to exactly the
 * source's final state. A twin run, not a server run (docs/testing.md).
 */
class MssqlTwinCdcTest {
    static MssqlTwinProcess twin;
    static ConnectionContext ctx;
    static ClickHouseEndpoint ch;

    @TempDir
    static Path home;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        twin = MssqlTwinProcess.start(home.resolve("twin"));
        Path passwordFile = Files.writeString(home.resolve("password"), twin.password());
        ctx = ConnectionContext.of(Map.of(TestEngines.SOURCE, new ContextEntry(TestEngines.SOURCE,
            ConnectionType.MSSQL, twin.url(), MssqlTwinProcess.USER, null, passwordFile.toString(), false, Map.of())),
            false);
        ch = TestEngines.clickhouse();
    }

    @AfterAll
    static void stop() {
        if (ch != null) {
            ch.close();
        }
        if (twin != null) {
            twin.close();
        }
    }

    static Connection source() {
        return SourceConnections.open(ctx.resolve(TestEngines.SOURCE, ConnectionType.MSSQL, "test"), "dpone-cdc");
    }

    static CdcRunOptions options(String backend, String table, String db, int maxEvents) {
        return new CdcRunOptions(CdcMode.live, "mssql", "clickhouse", backend, table + "-live", "dbo", table,
            db + "." + table + "_cdc", List.of("order_id"), null, null, null, TestEngines.SOURCE, "clickhouse_test",
            null, null, maxEvents);
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
                        : "UPDATE dbo." + table + " SET order_id = order_id + 100000, status = ? WHERE order_id = ?";
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        if (pick >= 75 && pick < 90) {
                            ps.setInt(1, id);
                            ps.setString(2, "x");
                        } else {
                            ps.setString(1, "s" + r.nextInt(10));
                            ps.setInt(2, id);
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
            st.execute("CREATE TABLE dbo." + table + " (order_id int NOT NULL PRIMARY KEY, status nvarchar(40) NOT NULL, "
                + "amount decimal(18,2) NOT NULL, note nvarchar(max) NULL)");
        }
    }

    void tickUntilCaughtUp(CdcRunOptions o) {
        for (int i = 0; i < 50; i++) {
            try (Connection src = source()) {
                CdcRuntimeRunReport r = CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), src, ch,
                    dir.resolve("spool")));
                assertTrue(r.passed(), String.valueOf(r.blockers()));
                if (!r.committed()) {
                    return;
                }
            } catch (java.sql.SQLException e) {
                throw new AssertionError(e);
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

    @Test
    void cdcTicksThroughTheDriverMaterializeTheSourcesFinalState() throws Exception {
        String db = TestEngines.newDatabase("twin_cdc");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = twin.connect()) {
            createOrders(c, "orders");
            try (Statement st = c.createStatement()) {
                st.execute("EXEC sys.sp_cdc_enable_db");
                st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders', "
                    + "@role_name = NULL");
            }
            writeChanges(c, "orders", 40, 1);
            CdcRunOptions o = options(SqlServerCdcReader.BACKEND, "orders", db, 25);
            tickUntilCaughtUp(o);
            writeChanges(c, "orders", 30, 2);
            tickUntilCaughtUp(o);
            assertEquals(sourceRows(c, "orders"), materialized(db, "orders"));
        }
    }

    @Test
    void changeTrackingTicksThroughTheDriverMaterializeTheSourcesFinalState() throws Exception {
        String db = TestEngines.newDatabase("twin_ct");
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db));
        try (Connection c = twin.connect()) {
            createOrders(c, "orders_ct");
            try (Statement st = c.createStatement()) {
                st.execute("ALTER DATABASE [" + MssqlTwinProcess.DATABASE + "] SET CHANGE_TRACKING = ON "
                    + "(CHANGE_RETENTION = 2 DAYS, AUTO_CLEANUP = ON)");
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
}
