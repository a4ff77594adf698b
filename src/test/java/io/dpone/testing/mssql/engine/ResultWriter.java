package io.dpone.testing.mssql.engine;

import java.io.IOException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Streams an H2 result to {@link Results}: each column described with its declared SQL Server type where it comes
 * from a declared column, rows read one at a time (H2 runs with {@code LAZY_QUERY_EXECUTION=1}, so nothing is
 * buffered), a cancel checked between rows, and an armed {@code @error_after_rows} fault raised as error 1205.
 */
final class ResultWriter {
    /** Finds the declared type of a table column; null when the twin did not declare it. */
    interface Declared {
        TwinCatalog.Column find(String schema, String table, String column) throws SQLException;

        /** Throws 229 when the session may not read the table. */
        void checkSelect(String schema, String table) throws SQLException, SqlServerError;
    }

    private ResultWriter() {
    }

    /** @return rows written, or -1 when the client cancelled */
    static long write(ResultSet rs, Results out, Declared declared) throws SQLException, IOException, SqlServerError {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<ResultColumn> columns = new ArrayList<>(n);
        SqlType[] types = new SqlType[n];
        for (int i = 1; i <= n; i++) {
            String label = md.getColumnLabel(i);
            String table = md.getTableName(i);
            declared.checkSelect(md.getSchemaName(i), table);
            TwinCatalog.Column col = table == null || table.isEmpty() ? null
                : declared.find(md.getSchemaName(i), table, md.getColumnName(i));
            SqlType type = col != null ? col.type() : H2Types.derived(md, i);
            if (type.kind().isClr()) {
                throw new SqlServerError(50000, 1, 16, "mssql-twin: column '" + label + "' is " + type.kind().sqlName()
                    + "; the twin does not send SQL Server's CLR serialisation of it. Select it converted: "
                    + (type.kind() == SqlType.Kind.HIERARCHYID ? "CAST([c] AS nvarchar(4000)) or [c].ToString()"
                    : "[c].STAsBinary(), [c].AsBinaryZM(), [c].STAsText() and [c].STSrid") + ".");
            }
            // SQL Server names a plain column reference as the table defines it
            String name = col != null && label.equalsIgnoreCase(col.name()) ? col.name() : label;
            types[i - 1] = type;
            columns.add(new ResultColumn(name, type, md.isNullable(i) != ResultSetMetaData.columnNoNulls));
        }
        out.columns(columns);
        int errorAfter = H2Backend.faults().takeErrorAfterRows();
        long rows = 0;
        while (true) {
            if (out.cancelled()) {
                return -1;
            }
            if (!rs.next()) {
                break;
            }
            if (errorAfter >= 0 && rows == errorAfter) {
                throw SqlErrors.deadlock();
            }
            Object[] values = new Object[n];
            for (int i = 0; i < n; i++) {
                values[i] = Values.read(rs, i + 1, types[i]);
            }
            out.row(values);
            rows++;
        }
        out.done(rows);
        return rows;
    }

    /** A result the twin computes itself (metadata procedures): rows already in the {@link Results} forms. */
    static void write(List<ResultColumn> columns, List<Object[]> rows, Results out) throws IOException {
        out.columns(columns);
        for (Object[] row : rows) {
            if (out.cancelled()) {
                return;
            }
            out.row(row);
        }
        out.done(rows.size());
    }
}
