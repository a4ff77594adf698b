package io.dpone.testing.mssql.engine;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;

/**
 * How a declared SQL Server type is stored in H2 (a type that holds every value of it exactly), and the SQL Server
 * type a result column gets when it does not come from a column the twin declared (an expression, a table created
 * through H2 directly).
 */
final class H2Types {
    private H2Types() {
    }

    /** The H2 column type for a declared type. */
    static String h2(SqlType t) {
        return switch (t.kind()) {
            // tinyint is 0..255 on SQL Server: wider than H2's signed TINYINT; a CHECK keeps the range
            case TINYINT, SMALLINT -> "SMALLINT";
            case INT -> "INTEGER";
            case BIGINT -> "BIGINT";
            case BIT -> "BOOLEAN";
            case DECIMAL, NUMERIC -> "DECIMAL(" + t.precision() + "," + t.scale() + ")";
            case MONEY -> "DECIMAL(19,4)";
            case SMALLMONEY -> "DECIMAL(10,4)";
            case REAL -> "REAL";
            case FLOAT -> "DOUBLE PRECISION";
            // (max) stays VARCHAR without a limit (H2 allows 1e9 characters): it compares and sorts like SQL
            // Server's varchar(max), which a CLOB would not; text/ntext/xml are CLOBs (not comparable there either)
            case CHAR, NCHAR -> "CHAR(" + t.length() + ")";
            case VARCHAR, NVARCHAR -> t.isMax() ? "VARCHAR" : "VARCHAR(" + t.length() + ")";
            case TEXT, NTEXT, XML -> "CLOB";
            case BINARY -> "BINARY(" + t.length() + ")";
            case VARBINARY -> t.isMax() ? "VARBINARY" : "VARBINARY(" + t.length() + ")";
            case IMAGE -> "BLOB";
            case DATE -> "DATE";
            case TIME -> "TIME(" + t.scale() + ")";
            case DATETIME2 -> "TIMESTAMP(" + t.scale() + ")";
            // datetime's 1/300 s ticks and smalldatetime's minutes: the client sends them already rounded
            case DATETIME -> "TIMESTAMP(3)";
            case SMALLDATETIME -> "TIMESTAMP(0)";
            case DATETIMEOFFSET -> "TIMESTAMP(" + t.scale() + ") WITH TIME ZONE";
            case UNIQUEIDENTIFIER -> "UUID";
            // a sql_variant holds its value's text; the twin does not keep the base type of each value
            case SQL_VARIANT -> "VARCHAR(8000)";
            // filled by the engine (BeforeWriteTrigger); the default only satisfies NOT NULL before the trigger runs
            case ROWVERSION -> "BINARY(8) DEFAULT X'0000000000000000'";
            // the canonical path text (hierarchyid::Parse's form), checked on the way in
            case HIERARCHYID -> "VARCHAR(4000)";
            // the SRID (4 bytes, big-endian) then the OGC WKB as SQL Server's STAsBinary returns it (Spatial)
            case GEOGRAPHY, GEOMETRY -> "VARBINARY";
        };
    }

    /** An extra column CHECK a type needs in H2 ({@code null} for none). */
    static String check(SqlType t, String quotedColumn) {
        return switch (t.kind()) {
            case TINYINT -> quotedColumn + " BETWEEN 0 AND 255";
            case HIERARCHYID -> "twin_hierarchyid_stored(" + quotedColumn + ")";
            default -> null;
        };
    }

    /** The SQL Server type of result column {@code i} from H2's own description of it. */
    static SqlType derived(ResultSetMetaData md, int i) throws SQLException {
        int type = md.getColumnType(i);
        int precision = md.getPrecision(i);
        int scale = md.getScale(i);
        String name = md.getColumnTypeName(i);
        if ("UUID".equals(name)) { // H2 reports its UUID as Types.BINARY: a derived uniqueidentifier column
            return SqlType.of(SqlType.Kind.UNIQUEIDENTIFIER);
        }
        return switch (type) {
            case Types.TINYINT -> SqlType.of(SqlType.Kind.TINYINT);
            case Types.SMALLINT -> SqlType.of(SqlType.Kind.SMALLINT);
            case Types.INTEGER -> SqlType.of(SqlType.Kind.INT);
            case Types.BIGINT -> SqlType.of(SqlType.Kind.BIGINT);
            case Types.BOOLEAN, Types.BIT -> SqlType.of(SqlType.Kind.BIT);
            case Types.NUMERIC, Types.DECIMAL -> {
                int p = Math.max(1, Math.min(38, precision));
                yield new SqlType(SqlType.Kind.DECIMAL, 0, p, Math.max(0, Math.min(p, scale)), null);
            }
            case Types.REAL -> SqlType.of(SqlType.Kind.REAL);
            case Types.FLOAT, Types.DOUBLE -> SqlType.of(SqlType.Kind.FLOAT);
            case Types.CHAR, Types.NCHAR -> characters(SqlType.Kind.NCHAR, precision);
            case Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR -> characters(SqlType.Kind.NVARCHAR, precision);
            case Types.CLOB, Types.NCLOB -> new SqlType(SqlType.Kind.NVARCHAR, SqlType.MAX, 0, 0,
                SqlType.DEFAULT_COLLATION);
            case Types.BINARY -> precision > 0 && precision <= 8000
                ? new SqlType(SqlType.Kind.BINARY, precision, 0, 0, null)
                : new SqlType(SqlType.Kind.VARBINARY, SqlType.MAX, 0, 0, null);
            case Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> new SqlType(SqlType.Kind.VARBINARY,
                precision > 0 && precision <= 8000 && type == Types.VARBINARY ? precision : SqlType.MAX, 0, 0, null);
            case Types.DATE -> SqlType.of(SqlType.Kind.DATE);
            case Types.TIME -> new SqlType(SqlType.Kind.TIME, 0, 0, Math.min(7, scale), null);
            case Types.TIMESTAMP -> new SqlType(SqlType.Kind.DATETIME2, 0, 0, Math.min(7, scale), null);
            case Types.TIMESTAMP_WITH_TIMEZONE, Types.TIME_WITH_TIMEZONE ->
                new SqlType(SqlType.Kind.DATETIMEOFFSET, 0, 0, Math.min(7, scale), null);
            case Types.NULL -> SqlType.of(SqlType.Kind.INT);
            default -> new SqlType(SqlType.Kind.NVARCHAR, SqlType.MAX, 0, 0, SqlType.DEFAULT_COLLATION);
        };
    }

    private static SqlType characters(SqlType.Kind kind, int precision) {
        int n = precision <= 0 ? 1 : precision;
        return n <= 4000 ? new SqlType(kind, n, 0, 0, SqlType.DEFAULT_COLLATION)
            : new SqlType(SqlType.Kind.NVARCHAR, SqlType.MAX, 0, 0, SqlType.DEFAULT_COLLATION);
    }
}
