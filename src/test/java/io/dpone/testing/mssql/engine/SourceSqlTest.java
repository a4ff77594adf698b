package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The source SQL dpone runs (SqlServerDialect), with parameters as mssql-jdbc sends them. */
class SourceSqlTest extends TwinTestBase {
    private void sales(int rows) throws Exception {
        batch("CREATE TABLE [dbo].[sales] ([id] bigint NOT NULL, [region] nvarchar(20), [amount] money, "
            + "CONSTRAINT [PK_sales] PRIMARY KEY CLUSTERED ([id]))");
        batch("BEGIN TRAN");
        for (int i = 1; i <= rows; i++) {
            exec("INSERT INTO [dbo].[sales] ([id], [region], [amount]) VALUES (@P0, @P1, @P2)",
                "@P0 bigint,@P1 nvarchar(4000),@P2 decimal(19,4)", (long) i, i % 2 == 0 ? "east" : "west",
                new BigDecimal(i + ".25"));
        }
        batch("COMMIT TRAN");
    }

    @Test
    void rangeSelectMinMaxAndTop() throws Exception {
        sales(10);
        RecordingResults range = exec("SELECT [id], [region], [amount] FROM [dbo].[sales] WHERE [id] >= @P0 AND "
            + "[id] < @P1", "@P0 bigint,@P1 bigint", 3L, 6L);
        assertEquals(List.of(3L, 4L, 5L), range.rows().stream().map(r -> r[0]).toList());
        assertEquals(new BigDecimal("3.2500"), range.rows().get(0)[2]);
        assertEquals("money", range.column(2).type().declaration());
        assertEquals(3L, range.result().count);
        RecordingResults minMax = batch("SELECT MIN([id]), MAX([id]) FROM [dbo].[sales]");
        assertEquals(List.of(1L, 10L), List.of(minMax.rows().get(0)));
        assertEquals(2, batch("SELECT TOP (2) [id] FROM [dbo].[sales] ORDER BY [id]").rows().size());
    }

    @Test
    void rowEstimateFromSysPartitions() throws Exception {
        sales(7);
        RecordingResults out = exec("SELECT SUM(p.rows) FROM sys.partitions p JOIN sys.tables t ON t.object_id = "
            + "p.object_id JOIN sys.schemas s ON s.schema_id = t.schema_id WHERE s.name = @P0 AND t.name = @P1 AND "
            + "p.index_id IN (0, 1)", "@P0 nvarchar(4000),@P1 nvarchar(4000)", "dbo", "sales");
        assertEquals(7L, ((Number) out.single()).longValue());
        RecordingResults none = exec("SELECT SUM(p.rows) FROM sys.partitions p JOIN sys.tables t ON t.object_id = "
            + "p.object_id JOIN sys.schemas s ON s.schema_id = t.schema_id WHERE s.name = @P0 AND t.name = @P1 AND "
            + "p.index_id IN (0, 1)", "@P0 nvarchar(4000),@P1 nvarchar(4000)", "dbo", "nope");
        assertNull(none.single());
    }

    @Test
    void objectIdAndConditionalDrop() throws Exception {
        sales(1);
        Object id = batch("SELECT OBJECT_ID('dbo.sales', 'U')").single();
        assertEquals(id, batch("SELECT object_id FROM sys.tables WHERE name = 'sales'").single());
        assertEquals(id, batch("SELECT OBJECT_ID('[dbo].[sales]')").single());
        assertNull(batch("SELECT OBJECT_ID('dbo.sales', 'V')").single());
        batch("IF OBJECT_ID('dbo.sales', 'U') IS NOT NULL DROP TABLE dbo.sales");
        assertNull(batch("SELECT OBJECT_ID('dbo.sales')").single());
        RecordingResults again = batch("IF OBJECT_ID('dbo.sales', 'U') IS NOT NULL DROP TABLE dbo.sales");
        assertEquals(1, again.statements.size());
        assertEquals(208, error(() -> batch("SELECT * FROM dbo.sales")).number());
    }

    @Test
    void parametersAreBoundByNameOutsideLiteralsAndBrackets() throws Exception {
        batch("CREATE TABLE [dbo].[p] ([@P0] nvarchar(10), v int)");
        exec("INSERT INTO [dbo].[p] ([@P0], v) VALUES ('@P1 stays', @P0)", "@P0 int", 7);
        RecordingResults out = exec("SELECT [@P0], v, @P0 + v FROM [dbo].[p] WHERE v = @P0 -- @P1\n",
            "@P0 int", 7);
        assertEquals(List.of("@P1 stays", 7, 14), List.of(out.rows().get(0)));
        assertEquals(137, error(() -> exec("SELECT @P3", "@P0 int", 1)).number());
        int handle = session.prepare("SELECT v FROM dbo.p WHERE v = @P0", "@P0 int");
        RecordingResults prepared = new RecordingResults();
        session.executePrepared(handle, List.of(new Param("", SqlType.parse("int"), 7, false)), prepared);
        assertEquals(7, prepared.single());
        session.unprepare(handle);
        assertEquals(8179, error(() -> session.executePrepared(handle, List.of(), new RecordingResults())).number());
    }

    @Test
    void aCancelStopsTheRows() throws Exception {
        sales(50);
        RecordingResults out = new RecordingResults();
        out.cancelAfter = 5;
        session.batch("SELECT [id] FROM [dbo].[sales]", out);
        assertEquals(5, out.rows().size());
        assertNull(out.result().count, "no DONE for a cancelled result");
    }
}
