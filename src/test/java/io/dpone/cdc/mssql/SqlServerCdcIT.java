package io.dpone.cdc.mssql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.testing.ItServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live readers against a real SQL Server 2022 (Agent on, so the CDC capture job runs) and a ClickHouse 25.8
 * server: CDC and Change Tracking enabled on {@code dbo.orders}, changes made, live ticks run, the CDC log and the
 * production SQL ({@code CHANGETABLE(CHANGES ...)}, {@code sys.fn_cdc_*}) checked. Skipped without Docker.
 */
class SqlServerCdcIT {
    static final String DB = "dpone_cdc_it";

    @TempDir
    static Path dir;
    static String url;
    static ClickHouseEndpoint ch;

    @BeforeAll
    static void setUp() throws Exception {
        String base = ItServers.mssql().url();
        try (Connection master = connect(base); Statement st = master.createStatement()) {
            st.execute("IF DB_ID(N'" + DB + "') IS NULL CREATE DATABASE " + DB);
            st.execute("ALTER DATABASE " + DB + " SET CHANGE_TRACKING = ON (CHANGE_RETENTION = 2 DAYS, "
                + "AUTO_CLEANUP = ON)");
        }
        url = base + ";databaseName=" + DB;
        try (Connection c = connect(url); Statement st = c.createStatement()) {
            st.execute("EXEC sys.sp_cdc_enable_db");
            st.execute("CREATE TABLE dbo.orders (order_id INT NOT NULL PRIMARY KEY, status NVARCHAR(40), "
                + "amount DECIMAL(18,2), note NVARCHAR(MAX), updated_at DATETIME2(7))");
            st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders', "
                + "@role_name = NULL, @supports_net_changes = 0");
            st.execute("ALTER TABLE dbo.orders ENABLE CHANGE_TRACKING");
        }
        Path secret = dir.resolve("clickhouse.password");
        Files.writeString(secret, ItServers.clickhouse().password() + "\n");
        ConnectionContext context = ConnectionContext.of(Map.of("clickhouse_it", new ContextEntry("clickhouse_it",
            ConnectionType.CLICKHOUSE, ItServers.clickhouse().url(),
            ItServers.clickhouse().user(), null, secret.toString(), false, Map.of())), false);
        ch = ServerClickHouseEndpoint.open(context.resolve("clickhouse_it", ConnectionType.CLICKHOUSE, "it"));
    }

    @AfterAll
    static void tearDown() {
        if (ch != null) {
            ch.close();
        }
    }

    static Connection connect(String jdbcUrl) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", ItServers.mssql().user());
        p.setProperty("password", ItServers.mssql().password());
        return DriverManager.getConnection(jdbcUrl, p);
    }

    /** Waits until the capture job has moved max LSN past every change made so far. */
    static void awaitCapture(Connection c) throws Exception {
        byte[] target;
        try (ResultSet rs = c.createStatement().executeQuery("SELECT sys.fn_cdc_map_time_to_lsn("
            + "'largest less than or equal', SYSDATETIME())")) {
            rs.next();
            target = rs.getBytes(1);
        }
        byte[] lsn = target;
        // a server's capture job reads the log asynchronously: there is nothing to wait on but its table
        io.dpone.testing.Await.until(java.time.Duration.ofSeconds(120), "the CDC capture job to catch up (target "
            + Lsn.of(lsn) + ")", () -> {
                try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM cdc.dbo_orders_CT")) {
                    rs.next();
                    return rs.getLong(1) >= 7;
                } catch (java.sql.SQLException e) {
                    throw new AssertionError(e);
                }
            });
    }

    static CdcRunOptions options(String backend, String db, int maxEvents) {
        return CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend(backend)
            .pipelineName("orders-" + backend).sourceTable("dbo", "orders").targetDataset(db + ".orders_cdc")
            .uniqueKeys(List.of("order_id")).connections("mssql_it", "clickhouse_it").maxEvents(maxEvents).build();
    }

    @Test
    void liveTicksForCdcAndChangeTrackingAgainstRealServers() throws Exception {
        try (Connection c = connect(url); Statement st = c.createStatement()) {
            st.execute("INSERT INTO dbo.orders VALUES (1, N'new', 1.00, N'Grüße', '2024-05-06T07:08:09.1234567'),"
                + " (2, N'new', 2.00, NULL, NULL), (3, N'new', 3.00, NULL, NULL)");
            st.execute("UPDATE dbo.orders SET status = N'paid' WHERE order_id = 1");
            st.execute("UPDATE dbo.orders SET order_id = 20 WHERE order_id = 2");
            st.execute("DELETE FROM dbo.orders WHERE order_id = 3");
            awaitCapture(c);

            List<CdcEvent> events = LiveReads.drain(new SqlServerCdcReader(c, LiveReads.CDC, "dbo_orders"), null, 2)
                .events();
            assertEquals(events, events.stream().sorted(CdcEvent.ORDER).toList());
            assertTrue(events.stream().anyMatch(e -> e.operation() == CdcOperation.update_before));
            assertTrue(events.stream().anyMatch(e -> e.operation() == CdcOperation.update_after));

            for (String backend : List.of("mssql_cdc", "mssql_change_tracking")) {
                String db = "it_" + backend;
                CdcRunOptions o = options(backend, db, 2);
                for (int i = 0; i < 20; i++) {
                    CdcRuntimeRunReport r = CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), c, ch,
                        dir.resolve("spool")));
                    assertTrue(r.passed(), String.valueOf(r.blockers()));
                    if (r.counts().read() == 0) {
                        break;
                    }
                }
                assertTrue(Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc"))
                    .get(0).get(0)) > 0, backend);
                assertEquals(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc")),
                    ch.query("SELECT uniqExact(dpone_cdc_event_id) FROM " + ClickHouseSql.table(db, "orders_cdc")));
            }
        }
    }
}
