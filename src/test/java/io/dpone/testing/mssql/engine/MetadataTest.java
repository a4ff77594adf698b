package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DatabaseMetaData.getColumns / getPrimaryKeys as mssql-jdbc 13.2.1 sends them. */
class MetadataTest extends TwinTestBase {
    /** The getColumns text mssql-jdbc prepares, its six {@code ?} already rewritten to {@code @P0..@P5}. */
    static final String GET_COLUMNS = "DECLARE @mssqljdbc_temp_sp_columns_result TABLE(TABLE_QUALIFIER SYSNAME, "
        + "TABLE_OWNER SYSNAME,TABLE_NAME SYSNAME, COLUMN_NAME SYSNAME, DATA_TYPE SMALLINT, TYPE_NAME SYSNAME, "
        + "PRECISION INT,LENGTH INT, SCALE SMALLINT, RADIX SMALLINT, NULLABLE SMALLINT, REMARKS VARCHAR(254), "
        + "COLUMN_DEF NVARCHAR(4000),SQL_DATA_TYPE SMALLINT, SQL_DATETIME_SUB SMALLINT, CHAR_OCTET_LENGTH INT, "
        + "ORDINAL_POSITION INT,IS_NULLABLE VARCHAR(254), SS_IS_SPARSE SMALLINT, SS_IS_COLUMN_SET SMALLINT, "
        + "SS_IS_COMPUTED SMALLINT,SS_IS_IDENTITY SMALLINT, SS_UDT_CATALOG_NAME NVARCHAR(128), SS_UDT_SCHEMA_NAME "
        + "NVARCHAR(128),SS_UDT_ASSEMBLY_TYPE_NAME NVARCHAR(max), SS_XML_SCHEMACOLLECTION_CATALOG_NAME NVARCHAR(128),"
        + "SS_XML_SCHEMACOLLECTION_SCHEMA_NAME NVARCHAR(128), SS_XML_SCHEMACOLLECTION_NAME NVARCHAR(128),"
        + "SS_DATA_TYPE TINYINT);INSERT INTO @mssqljdbc_temp_sp_columns_result EXEC sp_columns_100 @P0,@P1,@P2,@P3,"
        + "@P4,@P5;SELECT TABLE_QUALIFIER AS TABLE_CAT, TABLE_OWNER AS TABLE_SCHEM, TABLE_NAME, COLUMN_NAME, "
        + "CAST(DATA_TYPE AS INT) AS DATA_TYPE,TYPE_NAME, PRECISION AS COLUMN_SIZE, LENGTH AS BUFFER_LENGTH, "
        + "CAST(SCALE AS INT) AS DECIMAL_DIGITS, CAST(RADIX AS INT) AS NUM_PREC_RADIX,CAST(NULLABLE AS INT) AS "
        + "NULLABLE, CAST(REMARKS AS VARCHAR) AS REMARKS, COLUMN_DEF, CAST(SQL_DATA_TYPE AS INT) AS SQL_DATA_TYPE, "
        + "CAST(SQL_DATETIME_SUB AS INT) AS SQL_DATETIME_SUB, CHAR_OCTET_LENGTH, ORDINAL_POSITION, IS_NULLABLE,"
        + "CAST(NULL AS VARCHAR) AS SCOPE_CATALOG, CAST(NULL AS VARCHAR) AS SCOPE_SCHEMA, CAST(NULL AS VARCHAR) AS "
        + "SCOPE_TABLE, CAST(SS_DATA_TYPE AS SMALLINT) AS SOURCE_DATA_TYPE, CASE SS_IS_IDENTITY WHEN 0 THEN 'NO' "
        + "WHEN 1 THEN 'YES' WHEN '' THEN '' END AS IS_AUTOINCREMENT,CASE SS_IS_COMPUTED WHEN 0 THEN 'NO' WHEN 1 THEN "
        + "'YES' WHEN '' THEN '' END AS IS_GENERATEDCOLUMN, SS_IS_SPARSE, SS_IS_COLUMN_SET, SS_UDT_CATALOG_NAME, "
        + "SS_UDT_SCHEMA_NAME, SS_UDT_ASSEMBLY_TYPE_NAME,SS_XML_SCHEMACOLLECTION_CATALOG_NAME, "
        + "SS_XML_SCHEMACOLLECTION_SCHEMA_NAME, SS_XML_SCHEMACOLLECTION_NAME FROM @mssqljdbc_temp_sp_columns_result "
        + "ORDER BY TABLE_CAT, TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION;";
    static final String DEFS = "@P0 nvarchar(4000),@P1 nvarchar(4000),@P2 nvarchar(4000),@P3 nvarchar(4000),"
        + "@P4 int,@P5 int";

    /** What mssql-jdbc's DataTypeFilter and ZeroFixupFilter make of DATA_TYPE and COLUMN_SIZE. */
    static int jdbcType(int odbc) {
        return switch (odbc) {
            case 6 -> 8;
            case -11 -> 1;
            case -8 -> -15;
            case -9 -> -9;
            case -10 -> -16;
            case -154 -> 92;
            case -152 -> -16; // xml: SSType.XML's JDBC type, LONGNVARCHAR
            case -151 -> -3; // CLR types: SSType.UDT's JDBC type, VARBINARY
            default -> odbc;
        };
    }

    private List<Map<String, Object>> columns(String table, String schema, String column) throws Exception {
        RecordingResults out = exec(GET_COLUMNS, DEFS, table, schema, "shop", column, 2, 3);
        List<ResultColumn> cols = out.result().columns;
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Object[] r : out.rows()) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            for (int i = 0; i < cols.size(); i++) {
                m.put(cols.get(i).name(), r[i]);
            }
            rows.add(m);
        }
        return rows;
    }

    @Test
    void getColumnsAnswersTheOuterSelectsColumnsAndTypes() throws Exception {
        batch("CREATE TABLE dbo.orders (order_id int IDENTITY(1,1) NOT NULL PRIMARY KEY, status nvarchar(40), "
            + "amount decimal(18,2) NOT NULL DEFAULT 0, note nvarchar(max), updated_at datetime2(7), "
            + "tz datetimeoffset(3), at_time time(7), guid uniqueidentifier, cash money, tiny tinyint, "
            + "old ntext, v varchar(max), f float, d date, dt datetime)");
        RecordingResults out = exec(GET_COLUMNS, DEFS, "orders", "dbo", "shop", "%", 2, 3);
        List<ResultColumn> cols = out.result().columns;
        assertEquals(32, cols.size());
        assertEquals(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME",
            "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "REMARKS"),
            cols.subList(0, 12).stream().map(ResultColumn::name).toList());
        assertEquals("nvarchar(128)", cols.get(0).type().declaration());
        assertEquals(SqlType.Kind.INT, cols.get(4).type().kind());
        assertEquals(SqlType.Kind.SMALLINT, cols.get(21).type().kind());
        assertEquals("SOURCE_DATA_TYPE", cols.get(21).name());

        List<Map<String, Object>> rows = columns("orders", "dbo", "%");
        assertEquals(15, rows.size());
        Map<String, Object> id = rows.get(0);
        assertEquals("shop", id.get("TABLE_CAT"));
        assertEquals("dbo", id.get("TABLE_SCHEM"));
        assertEquals("order_id", id.get("COLUMN_NAME"));
        assertEquals("int identity", id.get("TYPE_NAME"));
        assertEquals(4, id.get("DATA_TYPE"));
        assertEquals(10, id.get("COLUMN_SIZE"));
        assertEquals(0, id.get("NULLABLE"));
        assertEquals("YES", id.get("IS_AUTOINCREMENT"));
        assertEquals(1, id.get("ORDINAL_POSITION"));
        expect(rows.get(1), "nvarchar", -9, 40, 80, null, 1);
        expect(rows.get(2), "decimal", 3, 18, 20, 2, 0);
        expect(rows.get(3), "nvarchar", -9, 0, 0, null, 1); // (max): the driver turns 0 into 2147483647
        expect(rows.get(4), "datetime2", 93, 27, 16, 7, 1);
        expect(rows.get(5), "datetimeoffset", -155, 30, 20, 3, 1);
        expect(rows.get(6), "time", -154, 16, 12, 7, 1);
        expect(rows.get(7), "uniqueidentifier", -11, 36, 16, null, 1);
        expect(rows.get(8), "money", 3, 19, 21, 4, 1);
        expect(rows.get(9), "tinyint", -6, 3, 1, 0, 1);
        expect(rows.get(10), "ntext", -10, 1073741823, 2147483646, null, 1);
        expect(rows.get(11), "varchar", 12, 0, 0, null, 1);
        expect(rows.get(12), "float", 6, 53, 8, null, 1);
        expect(rows.get(13), "date", 91, 10, 6, null, 1);
        expect(rows.get(14), "datetime", 93, 23, 16, 3, 1);
        assertEquals(92, jdbcType((Integer) rows.get(6).get("DATA_TYPE")));
        assertEquals(1, jdbcType((Integer) rows.get(7).get("DATA_TYPE")));
        assertEquals(-16, jdbcType((Integer) rows.get(10).get("DATA_TYPE")));
        assertEquals("NO", rows.get(1).get("IS_AUTOINCREMENT"));
        assertEquals("(0)", rows.get(2).get("COLUMN_DEF"));
        assertNull(rows.get(1).get("COLUMN_DEF"));
    }

    private static void expect(Map<String, Object> row, String typeName, int dataType, int size, int length,
                               Integer scale, int nullable) {
        String c = (String) row.get("COLUMN_NAME");
        assertEquals(typeName, row.get("TYPE_NAME"), c);
        assertEquals(dataType, row.get("DATA_TYPE"), c);
        assertEquals(size, row.get("COLUMN_SIZE"), c);
        assertEquals(length, row.get("BUFFER_LENGTH"), c);
        assertEquals(scale, row.get("DECIMAL_DIGITS"), c);
        assertEquals(nullable, row.get("NULLABLE"), c);
    }

    @Test
    void getColumnsAlsoArrivesPrepared() throws Exception {
        batch("CREATE TABLE dbo.t (k int NOT NULL)");
        int handle = session.prepare(GET_COLUMNS, DEFS);
        List<Param> params = new ArrayList<>();
        for (Object v : new Object[] {"t", "dbo", "shop", "%", 2, 3}) {
            params.add(new Param("", null, v, false));
        }
        RecordingResults out = new RecordingResults();
        session.executePrepared(handle, params, out);
        assertEquals(1, out.rows().size());
        assertEquals("int", out.rows().get(0)[5]);
        List<Param> otherDb = new ArrayList<>(params);
        otherDb.set(2, new Param("", null, "master", false));
        assertEquals(15250, error(() -> session.executePrepared(handle, otherDb, new RecordingResults())).number());
    }

    @Test
    void patternsAreLikePatternsWithBracketEscapes() throws Exception {
        batch("CREATE TABLE dbo.a_b (x int)");
        batch("CREATE TABLE dbo.axb (y int)");
        batch("CREATE SCHEMA sales");
        batch("CREATE TABLE sales.a_b (z int)");
        batch("CREATE TABLE dbo.A_c (w int)");
        assertEquals(List.of("x", "w", "y", "z"), columns("a__", "%", "%").stream().map(r -> r.get("COLUMN_NAME"))
            .toList(), "ordered by schema and table name case-insensitively");
        assertEquals(List.of("x", "y", "z"), columns("a_b", "%", "%").stream().map(r -> r.get("COLUMN_NAME")).toList());
        assertEquals(List.of("x", "z"), columns("a[_]b", "%", "%").stream().map(r -> r.get("COLUMN_NAME")).toList());
        assertEquals(List.of("x"), columns("A[_]B", "DBO", "%").stream().map(r -> r.get("COLUMN_NAME")).toList());
        assertEquals(List.of(), columns("a[_]b", "dbo", "q%"));
    }

    @Test
    void tablesCreatedThroughH2DirectlyGetDerivedTypes() throws Exception {
        java.sql.Connection h2 = ((EngineSession) session).h2;
        try (java.sql.Statement st = h2.createStatement()) {
            st.execute("CREATE TABLE dbo.plain (k BIGINT NOT NULL, v VARCHAR(12))");
        }
        h2.commit();
        List<Map<String, Object>> rows = columns("plain", "dbo", "%");
        expect(rows.get(0), "bigint", -5, 19, 8, 0, 0);
        expect(rows.get(1), "nvarchar", -9, 12, 24, null, 1);
        RecordingResults out = batch("SELECT k, v FROM dbo.plain");
        assertEquals(List.of("bigint", "nvarchar(12)"), out.result().columns.stream()
            .map(c -> c.type().declaration()).toList());
    }

    @Test
    void spPkeysAnswersTheKeyInOrder() throws Exception {
        batch("CREATE TABLE dbo.lines (order_id int NOT NULL, line smallint NOT NULL, qty int, "
            + "CONSTRAINT [PK_lines] PRIMARY KEY CLUSTERED ([order_id] ASC, [line] ASC))");
        RecordingResults out = new RecordingResults();
        session.call("sp_pkeys", List.of(new Param("", null, "lines", false), new Param("", null, "dbo", false),
            new Param("", null, "shop", false)), out);
        assertEquals(List.of("TABLE_QUALIFIER", "TABLE_OWNER", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"),
            out.result().columns.stream().map(ResultColumn::name).toList());
        assertEquals(2, out.rows().size());
        assertEquals(List.of("shop", "dbo", "lines", "order_id", (short) 1, "PK_lines"), List.of(out.rows().get(0)));
        assertEquals(List.of("shop", "dbo", "lines", "line", (short) 2, "PK_lines"), List.of(out.rows().get(1)));
        assertEquals(0, batch("EXEC sp_pkeys @table_name = N'nope'").rows().size());
    }
}
