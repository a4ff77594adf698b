package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Change Tracking enabled as a user does it, read with SqlServerChangeTrackingReader's production SQL. */
class ChangeTrackingTest extends TwinTestBase {
    /** The reader's changes query with the production CHANGETABLE(CHANGES ...) row source, as mssql-jdbc sends it. */
    private static final String CHANGES = "SELECT TOP (100) [ct].[SYS_CHANGE_VERSION], [ct].[SYS_CHANGE_OPERATION], "
        + "[ct].[order_id], CASE WHEN [t].[order_id] IS NULL THEN 0 ELSE 1 END, [t].[status] "
        + "FROM CHANGETABLE(CHANGES [dbo].[orders], @P0) AS [ct] LEFT OUTER JOIN [dbo].[orders] AS [t] ON "
        + "[t].[order_id] = [ct].[order_id] WHERE [ct].[SYS_CHANGE_VERSION] <= @P1 ORDER BY [ct].[SYS_CHANGE_VERSION], "
        + "[ct].[order_id]";

    @BeforeEach
    void enable() throws Exception {
        batch("CREATE TABLE [dbo].[orders] ([order_id] int NOT NULL PRIMARY KEY, [status] nvarchar(40))");
        batch("ALTER DATABASE [shop] SET CHANGE_TRACKING = ON (CHANGE_RETENTION = 2 DAYS, AUTO_CLEANUP = ON)");
        batch("ALTER TABLE [dbo].[orders] ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF)");
    }

    private long current() throws Exception {
        return ((Number) batch("SELECT CHANGE_TRACKING_CURRENT_VERSION()").single()).longValue();
    }

    private List<Object[]> changes(Long since, long upTo) throws Exception {
        return exec(CHANGES, "@P0 bigint,@P1 bigint", since, upTo).rows();
    }

    @Test
    void versionsAndMinValidVersion() throws Exception {
        long start = current();
        assertEquals(start, ((Number) exec("SELECT CHANGE_TRACKING_MIN_VALID_VERSION(OBJECT_ID(@P0))",
            "@P0 nvarchar(4000)", "[dbo].[orders]").single()).longValue());
        batch("CREATE TABLE dbo.untracked (k int PRIMARY KEY)");
        assertNull(exec("SELECT CHANGE_TRACKING_MIN_VALID_VERSION(OBJECT_ID(@P0))", "@P0 nvarchar(4000)",
            "[dbo].[untracked]").single());
        batch("BEGIN TRAN; INSERT INTO dbo.orders VALUES (1, N'a'); INSERT INTO dbo.orders VALUES (2, N'b'); COMMIT");
        assertEquals(start + 1, current(), "one version per committed transaction");
        batch("BEGIN TRAN; INSERT INTO dbo.orders VALUES (3, N'c'); ROLLBACK");
        assertEquals(start + 1, current());
        RecordingResults lag = exec("SELECT (SELECT MAX(commit_time) FROM sys.dm_tran_commit_table WHERE commit_ts = "
            + "@P0), CURRENT_TIMESTAMP", "@P0 bigint", start + 1);
        assertNotNull(lag.rows().get(0)[0]);
        assertNotNull(lag.rows().get(0)[1]);
    }

    @Test
    void netChangesPerKeySinceAVersion() throws Exception {
        long v0 = current();
        batch("INSERT INTO dbo.orders VALUES (1, N'a')");
        batch("INSERT INTO dbo.orders VALUES (2, N'b')");
        long v2 = current();
        batch("UPDATE dbo.orders SET status = N'a2' WHERE order_id = 1");
        batch("DELETE FROM dbo.orders WHERE order_id = 2");
        batch("INSERT INTO dbo.orders VALUES (3, N'c')");
        batch("UPDATE dbo.orders SET order_id = 4 WHERE order_id = 3");
        long v6 = current();
        assertEquals(v0 + 6, v6);

        RecordingResults all = exec(CHANGES, "@P0 bigint,@P1 bigint", null, v6);
        assertEquals(List.of("bigint", "nchar(1)", "int"), all.result().columns.subList(0, 3).stream()
            .map(c -> c.type().declaration()).toList());
        // from the beginning: 1 inserted (then updated) = I; 2 inserted then deleted = D; 3 gone = D; 4 = I
        assertEquals(List.of("1 I 1 a2", "2 D 0 null", "3 D 0 null", "4 I 1 c"), render(all.rows()));
        // since v2: 1 updated, 2 deleted, 3 inserted then moved (D), 4 inserted
        assertEquals(List.of("1 U 1 a2", "2 D 0 null", "3 D 0 null", "4 I 1 c"), render(changes(v2, v6)));
        assertEquals(List.of(v0 + 3, v0 + 4, v0 + 6, v0 + 6), changes(v2, v6).stream().map(r -> r[0]).toList());
        assertEquals(List.of(), changes(v6, v6));
        assertEquals(List.of("1 U 1 a2"), render(changes(v2, v0 + 3)));
    }

    private static List<String> render(List<Object[]> rows) {
        return rows.stream().map(r -> r[2] + " " + r[1] + " " + r[3] + " " + r[4]).toList();
    }

    @Test
    void uncommittedChangesAreInvisibleAndRollbackLeavesNone() throws Exception {
        long v0 = current();
        try (TwinSession other = backend.open("shop")) {
            batch("BEGIN TRAN; INSERT INTO dbo.orders VALUES (1, N'a')");
            assertEquals(List.of(), exec(other, CHANGES, "@P0 bigint,@P1 bigint", v0, Long.MAX_VALUE).rows());
            batch("COMMIT");
            assertEquals(1, exec(other, CHANGES, "@P0 bigint,@P1 bigint", v0, Long.MAX_VALUE).rows().size());
        }
    }

    @Test
    void enableAndDisableRules() throws Exception {
        batch("CREATE TABLE dbo.nokey (v int)");
        assertEquals(4997, error(() -> batch("ALTER TABLE dbo.nokey ENABLE CHANGE_TRACKING")).number());
        assertEquals(4996, error(() -> batch("ALTER TABLE [dbo].[orders] ENABLE CHANGE_TRACKING")).number());
        assertEquals(22115, error(() -> batch("ALTER DATABASE [shop] SET CHANGE_TRACKING = OFF")).number());
        batch("ALTER TABLE dbo.orders DISABLE CHANGE_TRACKING");
        assertEquals(4998, error(() -> changes(0L, 10)).number());
        batch("ALTER DATABASE shop SET CHANGE_TRACKING = OFF");
        assertNull(batch("SELECT CHANGE_TRACKING_CURRENT_VERSION()").single());
    }
}
