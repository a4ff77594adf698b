package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CREATE TABLE as people and SSMS write it. */
class TableDdlTest extends TwinTestBase {
    @Test
    void scriptedTableWithConstraintsDefaultsAndFilegroups() throws Exception {
        batch("CREATE TABLE [dbo].[Order Lines](\n"
            + "\t[line id] [int] IDENTITY(100,5) NOT NULL,\n"
            + "\t[code] [varchar](10) COLLATE Latin1_General_CI_AS NOT NULL CONSTRAINT [DF_code] DEFAULT ('none'),\n"
            + "\t[qty] [decimal](9, 3) NULL DEFAULT ((0)),\n"
            + "\t[label] nvarchar(20) NOT NULL DEFAULT N'it''s',\n"
            + "\t[created] datetime2(3) NOT NULL DEFAULT SYSUTCDATETIME(),\n"
            + "\t[flag] bit NOT NULL DEFAULT 1,\n"
            + " CONSTRAINT [PK_Order Lines] PRIMARY KEY CLUSTERED \n([line id] ASC\n)WITH (PAD_INDEX = OFF, "
            + "STATISTICS_NORECOMPUTE = OFF) ON [PRIMARY]\n) ON [PRIMARY] TEXTIMAGE_ON [PRIMARY]");
        batch("INSERT INTO [dbo].[Order Lines] DEFAULT VALUES");
        batch("INSERT INTO [dbo].[Order Lines] ([code]) VALUES ('x')");
        RecordingResults out = batch("SELECT * FROM [dbo].[Order Lines] ORDER BY [line id]");
        assertEquals(List.of("int", "varchar(10) COLLATE Latin1_General_CI_AS", "decimal(9,3)",
            "nvarchar(20) COLLATE SQL_Latin1_General_CP1_CI_AS", "datetime2(3)", "bit"),
            out.result().columns.stream().map(c -> TwinCatalog.text(c.type())).toList());
        Object[] first = out.rows().get(0);
        assertEquals(100, first[0]);
        assertEquals("none", first[1]);
        assertEquals(new java.math.BigDecimal("0.000"), first[2]);
        assertEquals("it's", first[3]);
        assertEquals(LocalDateTime.class, first[4].getClass());
        assertEquals(Boolean.TRUE, first[5]);
        assertEquals(105, out.rows().get(1)[0]);
        RecordingResults pk = new RecordingResults();
        session.call("sp_pkeys", List.of(new Param("@table_name", null, "Order Lines", false)), pk);
        assertEquals("PK_Order Lines", pk.rows().get(0)[5]);
        assertEquals("line id", pk.rows().get(0)[3]);
    }

    @Test
    void inlinePrimaryKeyAndSchemaQualifiedNames() throws Exception {
        batch("CREATE SCHEMA sales");
        batch("CREATE TABLE sales.orders (id bigint NOT NULL CONSTRAINT PK_o PRIMARY KEY CLUSTERED, "
            + "amount money NOT NULL, note ntext NULL, guid uniqueidentifier DEFAULT NEWID())");
        batch("INSERT INTO sales.orders (id, amount) VALUES (1, 2.5)");
        RecordingResults out = batch("SELECT id, amount, note, guid FROM sales.orders");
        assertEquals(List.of("bigint", "money", "ntext", "uniqueidentifier"),
            out.result().columns.stream().map(c -> c.type().declaration()).toList());
        assertEquals(new java.math.BigDecimal("2.5000"), out.rows().get(0)[1]);
        assertEquals(java.util.UUID.class, out.rows().get(0)[3].getClass());
        SqlServerError bad = error(() -> batch("CREATE TABLE sales.bad (x int NOT NULL FROBNICATE)"));
        assertEquals(102, bad.number());
        assertEquals("Incorrect syntax near 'FROBNICATE'.", bad.getMessage());
        assertEquals(102, error(() -> batch("CREATE TABLE sales.bad2 (x intt)")).number());
    }
}
