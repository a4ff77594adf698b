package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SQL Server CDC enabled as a user does it, captured as the capture job writes it, read with the product's SQL. */
class CdcTest extends TwinTestBase {
    /** SqlServerCdcReader's read of LSNs in [from, upTo] (ChangeTableSql.fromLsn) as mssql-jdbc sends it. */
    private static final String READ = "SELECT TOP (1000) [__$start_lsn], [__$command_id], [__$seqval], [__$operation],"
        + " [order_id], [status], [amount], [note], [updated_at] FROM [cdc].[dbo_orders_CT] WHERE [__$start_lsn] >= @P0"
        + " AND [__$start_lsn] <= @P1 ORDER BY [__$start_lsn], [__$command_id], [__$seqval], [__$operation]";
    private static final String LSNS = "@P0 varbinary(8000),@P1 varbinary(8000)";

    @BeforeEach
    void enable() throws Exception {
        batch("EXEC sys.sp_cdc_enable_db");
        batch("CREATE TABLE dbo.orders (order_id INT NOT NULL, status NVARCHAR(40), amount DECIMAL(18,2), "
            + "note NVARCHAR(MAX), updated_at DATETIME2(7), PRIMARY KEY (order_id))");
        batch("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders', @role_name = NULL");
    }

    private byte[] minLsn(String ci) throws Exception {
        return (byte[]) exec("SELECT sys.fn_cdc_get_min_lsn(@P0)", "@P0 nvarchar(4000)", ci).single();
    }

    private byte[] maxLsn() throws Exception {
        return (byte[]) batch("SELECT sys.fn_cdc_get_max_lsn()").single();
    }

    private List<Object[]> changes() throws Exception {
        return exec(READ, LSNS, minLsn("dbo_orders"), maxLsn()).rows();
    }

    private static String hex(Object b) {
        return HexFormat.of().formatHex((byte[]) b);
    }

    @Test
    void changeTableLayoutAndDeclaredTypes() throws Exception {
        RecordingResults out = batch("SELECT * FROM cdc.dbo_orders_CT");
        assertEquals(List.of("__$start_lsn binary(10)", "__$end_lsn binary(10)", "__$seqval binary(10)",
            "__$operation int", "__$update_mask varbinary(128)", "order_id int", "status nvarchar(40)",
            "amount decimal(18,2)", "note nvarchar(max)", "updated_at datetime2(7)", "__$command_id int"),
            out.result().columns.stream().map(c -> c.name() + " " + c.type().declaration()).toList());
        assertEquals(10, minLsn("dbo_orders").length);
        assertEquals("binary(10)", exec("SELECT sys.fn_cdc_get_min_lsn(@P0)", "@P0 nvarchar(4000)", "dbo_orders")
            .column(0).type().declaration());
        assertArrayEquals(new byte[10], minLsn("nope"), "0x00.. for an unknown capture instance");
        assertEquals(1, batch("SELECT COUNT(*) FROM cdc.change_tables WHERE capture_instance = 'dbo_orders'").rows()
            .size());
        assertEquals(Boolean.TRUE, batch("SELECT is_tracked_by_cdc FROM sys.tables WHERE name = 'orders'").single());
    }

    @Test
    void insertUpdateDeleteAndKeyChangeAreCapturedPerCommittedTransaction() throws Exception {
        batch("BEGIN TRAN; INSERT INTO dbo.orders VALUES (1, N'new', 10.50, N'n', '2024-01-01 10:00:00.1234567'); "
            + "INSERT INTO dbo.orders VALUES (2, N'new', 20, NULL, NULL); COMMIT TRAN");
        exec("UPDATE dbo.orders SET status = @P0 WHERE order_id = @P1", "@P0 nvarchar(4000),@P1 int", "paid", 1);
        batch("DELETE FROM dbo.orders WHERE order_id = 2");
        batch("UPDATE dbo.orders SET order_id = 10 WHERE order_id = 1");
        batch("BEGIN TRAN; INSERT INTO dbo.orders VALUES (3, N'lost', 1, NULL, NULL); ROLLBACK");

        List<Object[]> rows = changes();
        assertEquals(List.of(2, 2, 3, 4, 1, 1, 2), rows.stream().map(r -> r[3]).toList());
        assertEquals(List.of(1, 2, 1, 1, 2, 10), Arrays.asList(rows.get(0)[4], rows.get(1)[4], rows.get(2)[4],
            rows.get(3)[4], rows.get(4)[4], rows.get(6)[4]));
        assertEquals("new", rows.get(2)[5], "before image");
        assertEquals("paid", rows.get(3)[5], "after image");
        assertEquals(new BigDecimal("10.50"), rows.get(0)[6]);
        assertEquals(java.time.LocalDateTime.parse("2024-01-01T10:00:00.1234567"), rows.get(0)[8]);
        // one LSN per committed transaction, increasing; the PK update is a delete and an insert at one LSN
        List<String> lsns = rows.stream().map(r -> hex(r[0])).toList();
        assertEquals(lsns.get(0), lsns.get(1));
        assertEquals(lsns.get(2), lsns.get(3));
        assertEquals(lsns.get(5), lsns.get(6));
        assertEquals(List.copyOf(new java.util.TreeSet<>(lsns)), lsns.stream().distinct().toList());
        assertEquals(4, lsns.stream().distinct().count());
        assertEquals(lsns.get(6), hex(maxLsn()));
        // command ids count the transaction's changes; an update's two images share command id and seqval
        assertEquals(List.of(1, 2, 1, 1, 1, 1, 2), rows.stream().map(r -> r[1]).toList());
        assertEquals(hex(rows.get(2)[2]), hex(rows.get(3)[2]));
        assertTrue(hex(rows.get(0)[2]).compareTo(hex(rows.get(1)[2])) < 0, "seqval increases");
        assertTrue(hex(rows.get(5)[2]).compareTo(hex(rows.get(6)[2])) < 0);
        assertNotNull(exec("SELECT sys.fn_cdc_map_lsn_to_time(@P0), CURRENT_TIMESTAMP", "@P0 varbinary(8000)",
            rows.get(0)[0]).rows().get(0)[0]);
        RecordingResults mask = batch("SELECT [__$update_mask] FROM cdc.dbo_orders_CT WHERE [__$operation] = 4");
        assertArrayEquals(new byte[] {0b00010}, (byte[]) mask.single(), "only status (column 2) changed");
    }

    @Test
    void lsnOrderIsCommitOrderAcrossSessions() throws Exception {
        try (TwinSession other = backend.open("shop")) {
            batch("BEGIN TRAN; INSERT INTO dbo.orders (order_id) VALUES (1)");
            batch(other, "INSERT INTO dbo.orders (order_id) VALUES (2)");
            batch("COMMIT");
        }
        List<Object[]> rows = changes();
        assertEquals(List.of(2, 1), rows.stream().map(r -> r[4]).toList(), "the later commit has the higher LSN");
        assertTrue(hex(rows.get(1)[2]).compareTo(hex(rows.get(0)[2])) < 0, "but the earlier change's seqval");
    }

    @Test
    void enableOverRpcWithACaptureInstanceAndDisable() throws Exception {
        RecordingResults out = new RecordingResults();
        session.call("sys.sp_cdc_enable_table", List.of(new Param("@source_schema", null, "dbo", false),
            new Param("@source_name", null, "orders", false), new Param("@role_name", null, null, false),
            new Param("@capture_instance", null, "orders_v2", false)), out);
        batch("INSERT INTO dbo.orders (order_id, status) VALUES (5, N'x')");
        assertEquals(1, batch("SELECT [order_id] FROM cdc.orders_v2_CT").rows().size());
        assertEquals(1, batch("SELECT [order_id] FROM cdc.dbo_orders_CT").rows().size());
        assertEquals(22926, error(() -> batch("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', "
            + "@source_name = N'orders', @role_name = NULL, @capture_instance = N'orders_v2'")).number());
        assertEquals(22928, error(() -> batch("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', "
            + "@source_name = N'orders', @role_name = NULL, @capture_instance = N'third'")).number());
        batch("EXEC sys.sp_cdc_disable_table @source_schema = N'dbo', @source_name = N'orders', "
            + "@capture_instance = N'orders_v2'");
        assertArrayEquals(new byte[10], minLsn("orders_v2"));
        assertEquals(208, error(() -> batch("SELECT * FROM cdc.orders_v2_CT")).number());
        batch("INSERT INTO dbo.orders (order_id) VALUES (6)");
        assertEquals(2, batch("SELECT [order_id] FROM cdc.dbo_orders_CT").rows().size());
    }

    @Test
    void captureContinuesAfterARestart() throws Exception {
        batch("INSERT INTO dbo.orders (order_id) VALUES (1)");
        session.close();
        backend.close();
        backend = new H2Backend(dir);
        session = backend.open("shop");
        batch("BEGIN TRAN; UPDATE dbo.orders SET status = N'after restart' WHERE order_id = 1; COMMIT");
        List<Object[]> rows = changes();
        assertEquals(List.of(2, 3, 4), rows.stream().map(r -> r[3]).toList());
        assertTrue(hex(rows.get(0)[0]).compareTo(hex(rows.get(1)[0])) < 0, "LSNs keep increasing");
        assertEquals("int", batch("SELECT [__$operation] FROM cdc.dbo_orders_CT").column(0).type().declaration());
    }

    @Test
    void enablingNeedsTheDatabaseEnabled() throws Exception {
        batch("CREATE DATABASE other");
        batch("USE other");
        batch("CREATE TABLE dbo.t (k int PRIMARY KEY)");
        assertEquals(22901, error(() -> batch("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', "
            + "@source_name = N't', @role_name = NULL")).number());
        assertNull(batch("SELECT sys.fn_cdc_get_max_lsn()").single());
    }

    @Test
    void aCapturedTableKeepsCapturingAfterAlterTableAndASecondInstanceHoldsTheAddedColumn() throws Exception {
        batch("INSERT INTO dbo.orders (order_id, status) VALUES (1, N'a')");
        batch("ALTER TABLE dbo.orders ADD channel nvarchar(20) NULL");
        batch("INSERT INTO dbo.orders (order_id, status, channel) VALUES (2, N'b', N'web')");
        assertEquals(2L, ((Number) batch("SELECT COUNT(*) FROM cdc.dbo_orders_CT").single()).longValue(),
            "the first instance keeps capturing, without the added column");
        batch("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders', @role_name = NULL, "
            + "@capture_instance = N'orders_v2'");
        batch("UPDATE dbo.orders SET channel = N'shop' WHERE order_id = 1");
        assertEquals(List.of("shop"), batch("SELECT channel FROM cdc.orders_v2_CT WHERE [__$operation] = 4").rows()
            .stream().map(r -> r[0]).toList());
        assertEquals(4L, ((Number) batch("SELECT COUNT(*) FROM cdc.dbo_orders_CT").single()).longValue());
    }
}
