package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every declared type round-trips: result columns carry the declared type, values the documented Java form. */
class DeclaredTypesTest extends TwinTestBase {
    private static final String DDL = "CREATE TABLE [dbo].[all_types] ([id] int NOT NULL IDENTITY(1,1), "
        + "tiny tinyint, small smallint, big bigint NULL, flag bit, dec decimal(38, 10), num numeric(5), "
        + "cash money, little smallmoney, r real, f float, c char(4), vc varchar(40) COLLATE Chinese_PRC_CI_AS, "
        + "latin varchar(20), nc nchar(3), nv nvarchar(100), nvmax nvarchar(max), vcmax varchar(max), "
        + "txt text, ntxt ntext, bin binary(4), vb varbinary(16), vbmax varbinary(max), img image, d date, "
        + "t time(7), dt2 datetime2(7), dt datetime, sdt smalldatetime, dto datetimeoffset(7), "
        + "u uniqueidentifier, CONSTRAINT [PK_all_types] PRIMARY KEY CLUSTERED ([id] ASC))";
    private static final String COLUMNS = "tiny, small, big, flag, dec, num, cash, little, r, f, c, vc, latin, nc, nv, "
        + "nvmax, vcmax, txt, ntxt, bin, vb, vbmax, img, d, t, dt2, dt, sdt, dto, u";
    private static final String DEFS = "@P0 tinyint,@P1 smallint,@P2 bigint,@P3 bit,@P4 decimal(38,10),"
        + "@P5 numeric(5,0),@P6 money,@P7 smallmoney,@P8 real,@P9 float,@P10 char(4),@P11 varchar(40),"
        + "@P12 varchar(20),@P13 nchar(3),@P14 nvarchar(100),@P15 nvarchar(max),@P16 varchar(max),@P17 text,"
        + "@P18 ntext,@P19 binary(4),@P20 varbinary(16),@P21 varbinary(max),@P22 image,@P23 date,@P24 time(7),"
        + "@P25 datetime2(7),@P26 datetime,@P27 smalldatetime,@P28 datetimeoffset(7),@P29 uniqueidentifier";

    private void insert(Object... values) throws Exception {
        StringBuilder params = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            params.append(i == 0 ? "" : ",").append("@P").append(i);
        }
        RecordingResults out = exec("INSERT INTO dbo.all_types (" + COLUMNS + ") VALUES (" + params + ")", DEFS, values);
        assertEquals(1L, out.statements.get(0).count);
    }

    @Test
    void resultColumnsCarryTheDeclaredTypes() throws Exception {
        batch(DDL);
        RecordingResults out = batch("SELECT [id], " + COLUMNS + " FROM [dbo].[all_types]");
        List<String> declared = out.result().columns.stream().map(c -> TwinCatalog.text(c.type())).toList();
        assertEquals(List.of("int", "tinyint", "smallint", "bigint", "bit", "decimal(38,10)", "numeric(5,0)", "money",
            "smallmoney", "real", "float", "char(4) COLLATE SQL_Latin1_General_CP1_CI_AS",
            "varchar(40) COLLATE Chinese_PRC_CI_AS", "varchar(20) COLLATE SQL_Latin1_General_CP1_CI_AS",
            "nchar(3) COLLATE SQL_Latin1_General_CP1_CI_AS", "nvarchar(100) COLLATE SQL_Latin1_General_CP1_CI_AS",
            "nvarchar(max) COLLATE SQL_Latin1_General_CP1_CI_AS", "varchar(max) COLLATE SQL_Latin1_General_CP1_CI_AS",
            "text COLLATE SQL_Latin1_General_CP1_CI_AS", "ntext COLLATE SQL_Latin1_General_CP1_CI_AS", "binary(4)",
            "varbinary(16)", "varbinary(max)", "image", "date", "time(7)", "datetime2(7)", "datetime", "smalldatetime",
            "datetimeoffset(7)", "uniqueidentifier"), declared);
        assertEquals("id", out.column(0).name());
        assertFalse(out.column(0).nullable());
        assertTrue(out.column(3).nullable());
    }

    @Test
    void extremesRoundTrip() throws Exception {
        batch(DDL);
        String chinese = "北京市朝阳区";
        String latin = "Ça coûte 5 €, naïve";
        String big = "x€".repeat(600_000); // 1.2 M characters
        byte[] blob = new byte[1_100_000];
        Arrays.fill(blob, (byte) 0xA5);
        UUID u = UUID.fromString("6F9619FF-8B86-D011-B42D-00C04FC964FF");
        OffsetDateTime dto = OffsetDateTime.parse("9999-12-31T23:59:59.9999999-14:00");
        insert(255, 32767, Long.MAX_VALUE, true, new BigDecimal("1234567890123456789012345678.0123456789"),
            new BigDecimal("99999"), new BigDecimal("922337203685477.5807"), new BigDecimal("214748.3647"),
            Float.MAX_VALUE, Double.MIN_VALUE, "ab", chinese, latin, "日本", "Grüße, 世界", big, "ascii max",
            "old text", "old ntext ✓", new byte[] {1, 2, 3, 4}, new byte[] {0, (byte) 0xFF}, blob, new byte[] {9},
            LocalDate.of(1, 1, 1), LocalTime.parse("23:59:59.9999999"), LocalDateTime.parse("9999-12-31T23:59:59.9999999"),
            LocalDateTime.parse("1753-01-01T00:00:00.003"), LocalDateTime.parse("2079-06-06T23:59"), dto, u);
        insert(0, -32768, Long.MIN_VALUE, false, new BigDecimal("-0.0000000001"), new BigDecimal("-99999"),
            new BigDecimal("-922337203685477.5808"), new BigDecimal("-214748.3648"), -Float.MAX_VALUE,
            -Double.MAX_VALUE, "", "", "", "", "", "", "", "", "", new byte[0], new byte[0], new byte[0], new byte[0],
            LocalDate.of(9999, 12, 31), LocalTime.MIDNIGHT, LocalDateTime.parse("0001-01-01T00:00"),
            LocalDateTime.parse("9999-12-31T23:59:59.997"), LocalDateTime.parse("1900-01-01T00:00"),
            OffsetDateTime.parse("0001-01-01T00:00+14:00"), new UUID(0, 0));
        insert(new Object[30]);
        List<Object[]> rows = batch("SELECT " + COLUMNS + " FROM dbo.all_types ORDER BY id").rows();
        Object[] max = rows.get(0);
        assertEquals((short) 255, max[0]);
        assertEquals((short) 32767, max[1]);
        assertEquals(Long.MAX_VALUE, max[2]);
        assertEquals(Boolean.TRUE, max[3]);
        assertEquals(new BigDecimal("1234567890123456789012345678.0123456789"), max[4]);
        assertEquals(new BigDecimal("99999"), max[5]);
        assertEquals(new BigDecimal("922337203685477.5807"), max[6]);
        assertEquals(new BigDecimal("214748.3647"), max[7]);
        assertEquals(Float.MAX_VALUE, max[8]);
        assertEquals(Double.MIN_VALUE, max[9]);
        assertEquals("ab  ", max[10], "char(4) is blank-padded");
        assertEquals(chinese, max[11]);
        assertEquals(latin, max[12]);
        assertEquals("日本 ", max[13]);
        assertEquals("Grüße, 世界", max[14]);
        assertEquals(big, max[15]);
        assertEquals("old ntext ✓", max[18]);
        assertArrayEquals(new byte[] {1, 2, 3, 4}, (byte[]) max[19]);
        assertArrayEquals(new byte[] {0, (byte) 0xFF}, (byte[]) max[20]);
        assertArrayEquals(blob, (byte[]) max[21]);
        assertArrayEquals(new byte[] {9}, (byte[]) max[22]);
        assertEquals(LocalDate.of(1, 1, 1), max[23]);
        assertEquals(LocalTime.parse("23:59:59.9999999"), max[24]);
        assertEquals(LocalDateTime.parse("9999-12-31T23:59:59.9999999"), max[25]);
        assertEquals(LocalDateTime.parse("1753-01-01T00:00:00.003"), max[26]);
        assertEquals(LocalDateTime.parse("2079-06-06T23:59"), max[27]);
        assertEquals(dto, max[28]);
        assertEquals(u, max[29]);
        Object[] min = rows.get(1);
        assertEquals((short) 0, min[0]);
        assertEquals(Long.MIN_VALUE, min[2]);
        assertEquals(new BigDecimal("-0.0000000001"), min[4]);
        assertEquals(new BigDecimal("-922337203685477.5808"), min[6]);
        assertEquals(LocalDateTime.parse("0001-01-01T00:00"), min[25]);
        assertEquals(OffsetDateTime.parse("0001-01-01T00:00+14:00"), min[28]);
        assertEquals(new UUID(0, 0), min[29]);
        assertTrue(Arrays.stream(rows.get(2)).allMatch(v -> v == null), "NULL in every type");
    }

    @Test
    void decimalsCarryTheDeclaredScale() throws Exception {
        batch("CREATE TABLE prices (p decimal(18,4), m money)");
        exec("INSERT INTO prices VALUES (@P0, @P1)", "@P0 decimal(18,1),@P1 money", new BigDecimal("2.5"),
            new BigDecimal("3"));
        Object[] row = batch("SELECT p, m FROM prices").rows().get(0);
        assertEquals(4, ((BigDecimal) row[0]).scale());
        assertEquals(new BigDecimal("2.5000"), row[0]);
        assertEquals(new BigDecimal("3.0000"), row[1]);
    }

    @Test
    void tinyintRejectsValuesOutsideZeroTo255() throws Exception {
        batch("CREATE TABLE t8 (v tinyint)");
        assertEquals(8115, error(() -> exec("INSERT INTO t8 VALUES (@P0)", "@P0 int", 256)).number());
        assertEquals(8115, error(() -> exec("INSERT INTO t8 VALUES (@P0)", "@P0 int", -1)).number());
    }

    @Test
    void expressionsAndH2TablesGetDerivedTypes() throws Exception {
        batch("CREATE TABLE n (k bigint NOT NULL PRIMARY KEY, v nvarchar(10))");
        exec("INSERT INTO n VALUES (@P0, @P1)", "@P0 bigint,@P1 nvarchar(4000)", 5L, "five");
        RecordingResults out = batch("SELECT MIN([k]), MAX([k]), COUNT(*), 'x' AS lit, CAST(1.5 AS DECIMAL(9,2)) "
            + "FROM [dbo].[n]");
        assertEquals(SqlType.Kind.BIGINT, out.column(0).type().kind());
        assertEquals("", out.column(0).name());
        assertEquals(5L, out.rows().get(0)[1]);
        assertEquals("lit", out.column(3).name());
        assertEquals(SqlType.Kind.NVARCHAR, out.column(3).type().kind());
        assertEquals(new SqlType(SqlType.Kind.DECIMAL, 0, 9, 2, null), out.column(4).type());
        assertNull(TwinCatalog.columns(((EngineSession) session).h2, "dbo", "nothing").get("x"));
    }

    @Test
    void declaredTypesSurviveARestartAndFollowAlterAndDrop() throws Exception {
        batch("CREATE TABLE dbo.keep (a tinyint, b datetime)");
        batch("ALTER TABLE dbo.keep ADD c money NULL, d nvarchar(max)");
        batch("ALTER TABLE dbo.keep DROP COLUMN b");
        session.close();
        backend.close();
        backend = new H2Backend(dir);
        session = backend.open("SHOP");
        RecordingResults out = batch("SELECT * FROM keep");
        assertEquals(List.of("tinyint", "money", "nvarchar(max)"),
            out.result().columns.stream().map(c -> c.type().declaration()).toList());
        batch("DROP TABLE dbo.keep");
        batch("CREATE TABLE dbo.keep (a int)");
        assertEquals(List.of("int"), batch("SELECT * FROM keep").result().columns.stream()
            .map(c -> c.type().declaration()).toList());
    }
}
