package io.dpone.testing.mssql.tds;

import io.dpone.testing.mssql.engine.Param;
import io.dpone.testing.mssql.engine.ResultColumn;
import io.dpone.testing.mssql.engine.Results;
import io.dpone.testing.mssql.engine.SqlServerError;
import io.dpone.testing.mssql.engine.SqlType;
import io.dpone.testing.mssql.engine.TwinSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A session for the wire's tests, no SQL parsed: a batch names a canned result ({@code rows:<name>} from
 * {@link #RESULTS}, {@code count:N} a bigint result of N rows, {@code error:N} SQL Server error N after the rows of
 * {@code rows:}); anything else is a statement without rows. {@code sp_executesql} answers one row holding its
 * parameters, each with the type it was sent as.
 */
final class FakeSession implements TwinSession {
    static final Map<String, Object[]> RESULTS = new java.util.concurrent.ConcurrentHashMap<>();
    private int nextHandle = 1;
    private final Map<Integer, String> prepared = new java.util.HashMap<>();

    /** Registers a canned result: columns, then rows. */
    static void define(String name, List<ResultColumn> columns, List<Object[]> rows) {
        RESULTS.put(name, new Object[] {columns, rows});
    }

    @Override
    @SuppressWarnings("unchecked")
    public void batch(String sql, Results out) throws IOException, SqlServerError {
        for (String statement : sql.split(";")) {
            String s = statement.trim();
            if (s.startsWith("rows:")) {
                Object[] r = RESULTS.get(s.substring(5));
                out.columns((List<ResultColumn>) r[0]);
                long n = 0;
                for (Object[] row : (List<Object[]>) r[1]) {
                    out.row(row);
                    n++;
                }
                out.done(n);
            } else if (s.startsWith("count:")) {
                long n = Long.parseLong(s.substring(6));
                out.columns(List.of(new ResultColumn("n", SqlType.parse("bigint"), false)));
                for (long i = 0; i < n && !out.cancelled(); i++) {
                    out.row(new Object[] {i});
                }
                out.done(n);
            } else if (s.startsWith("error:")) {
                throw new SqlServerError(Integer.parseInt(s.substring(6)), "Invalid object name 'nope'.");
            } else if (!s.isEmpty()) {
                out.done(-1);
            }
        }
    }

    @Override
    public void execute(String sql, String definitions, List<Param> params, Results out) throws IOException {
        List<ResultColumn> cols = new ArrayList<>();
        Object[] row = new Object[params.size()];
        for (int i = 0; i < params.size(); i++) {
            cols.add(new ResultColumn(params.get(i).name().replace("@", ""), params.get(i).type(), true));
            row[i] = params.get(i).value();
        }
        out.columns(cols);
        out.row(row);
        out.done(1);
    }

    @Override
    public int prepare(String sql, String definitions) {
        prepared.put(nextHandle, sql);
        return nextHandle++;
    }

    @Override
    public void executePrepared(int handle, List<Param> params, Results out) throws IOException, SqlServerError {
        if (!prepared.containsKey(handle)) {
            throw new SqlServerError(8179, "Could not find prepared statement with handle " + handle + ".");
        }
        execute(prepared.get(handle), "", params, out);
    }

    @Override
    public void unprepare(int handle) {
        prepared.remove(handle);
    }

    @Override
    public void call(String procedure, List<Param> params, Results out) throws IOException {
        execute(procedure, "", params, out);
    }

    @Override
    public String database() {
        return "twin";
    }

    @Override
    public void close() {
    }
}
