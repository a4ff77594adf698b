package io.dpone.testing.mssql.engine;

/**
 * A column's row in SQL Server 2022's {@code sp_columns_100 @ODBCVer = 3}: the ODBC type code (before mssql-jdbc's
 * {@code DataTypeFilter} maps -11/-8/-9/-10/6/-154 to JDBC codes), precision, transfer length, scale, radix, the
 * SQL_DATA_TYPE / SQL_DATETIME_SUB pair, octet length and the legacy SS_DATA_TYPE. {@code (max)} types report
 * precision and length 0 (the driver's {@code ZeroFixupFilter} turns them into 2147483647).
 */
record OdbcType(int dataType, String typeName, Integer precision, Integer length, Integer scale, Integer radix,
                int sqlDataType, Integer datetimeSub, Integer octets, int ssDataType) {

    static OdbcType of(SqlType t, boolean identity) {
        OdbcType o = base(t);
        return identity ? new OdbcType(o.dataType, o.typeName + " identity", o.precision, o.length, o.scale, o.radix,
            o.sqlDataType, o.datetimeSub, o.octets, o.ssDataType) : o;
    }

    private static OdbcType base(SqlType t) {
        String name = t.kind().sqlName();
        int n = t.length();
        int s = t.scale();
        return switch (t.kind()) {
            case BIT -> new OdbcType(-7, name, 1, 1, null, null, -7, null, null, 50);
            case TINYINT -> exact(-6, name, 3, 1, 38);
            case SMALLINT -> exact(5, name, 5, 2, 38);
            case INT -> exact(4, name, 10, 4, 38);
            case BIGINT -> exact(-5, name, 19, 8, 108);
            case DECIMAL -> new OdbcType(3, name, t.precision(), t.precision() + 2, s, 10, 3, null, null, 106);
            case NUMERIC -> new OdbcType(2, name, t.precision(), t.precision() + 2, s, 10, 2, null, null, 108);
            case MONEY -> new OdbcType(3, name, 19, 21, 4, 10, 3, null, null, 110);
            case SMALLMONEY -> new OdbcType(3, name, 10, 12, 4, 10, 3, null, null, 110);
            case FLOAT -> new OdbcType(6, name, 53, 8, null, 2, 6, null, null, 109);
            case REAL -> new OdbcType(7, name, 24, 4, null, 2, 7, null, null, 109);
            case CHAR -> chars(1, name, n, n, 47);
            case VARCHAR -> t.isMax() ? chars(12, name, 0, 0, 39) : chars(12, name, n, n, 39);
            case NCHAR -> chars(-8, name, n, 2 * n, 47);
            case NVARCHAR -> t.isMax() ? chars(-9, name, 0, 0, 39) : chars(-9, name, n, 2 * n, 39);
            case TEXT -> chars(-1, name, Integer.MAX_VALUE, Integer.MAX_VALUE, 35);
            case NTEXT -> chars(-10, name, 1_073_741_823, Integer.MAX_VALUE - 1, 35);
            case XML -> chars(-152, name, 0, 0, 0);
            case BINARY -> chars(-2, name, n, n, 45);
            case VARBINARY -> t.isMax() ? chars(-3, name, 0, 0, 37) : chars(-3, name, n, n, 37);
            case IMAGE -> chars(-4, name, Integer.MAX_VALUE, Integer.MAX_VALUE, 34);
            case DATE -> new OdbcType(91, name, 10, 6, null, null, 9, 1, null, 0);
            case TIME -> new OdbcType(-154, name, 8 + fraction(s), 12, s, null, -154, 0, null, 0);
            case DATETIME2 -> new OdbcType(93, name, 19 + fraction(s), 16, s, null, 9, 3, null, 0);
            case DATETIMEOFFSET -> new OdbcType(-155, name, 26 + fraction(s), 20, s, null, -155, 0, null, 0);
            case DATETIME -> new OdbcType(93, name, 23, 16, 3, null, 9, 3, null, 111);
            case SMALLDATETIME -> new OdbcType(93, name, 16, 16, 0, null, 9, 3, null, 111);
            case UNIQUEIDENTIFIER -> new OdbcType(-11, name, 36, 16, null, null, -11, null, null, 0);
            case SQL_VARIANT -> new OdbcType(-150, name, 8000, 8000, 0, 10, -150, null, 8000, 0);
            case ROWVERSION -> chars(-2, name, 8, 8, 45);
            // SQL_SS_UDT; a live 2022 answers geometry with precision, length and octet length 0 and SS_DATA_TYPE 23
            // (mssql-jdbc issue 2645); hierarchyid's 892 is sys.types.max_length (not compared with a server)
            case HIERARCHYID -> chars(-151, name, 892, 892, 23);
            case GEOGRAPHY, GEOMETRY -> chars(-151, name, 0, 0, 23);
        };
    }

    private static int fraction(int scale) {
        return scale > 0 ? scale + 1 : 0;
    }

    private static OdbcType exact(int code, String name, int precision, int length, int ss) {
        return new OdbcType(code, name, precision, length, 0, 10, code, null, null, ss);
    }

    private static OdbcType chars(int code, String name, int precision, int length, int ss) {
        return new OdbcType(code, name, precision, length, null, null, code, null, length, ss);
    }
}
