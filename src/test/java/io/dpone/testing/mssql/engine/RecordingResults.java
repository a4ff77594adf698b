package io.dpone.testing.mssql.engine;

import java.util.ArrayList;
import java.util.List;

/** A {@link Results} that keeps everything a request produced, for tests; {@link #cancelAfter} simulates an attention. */
final class RecordingResults implements Results {
    /** One statement's output: its columns (null when it returned no rows), rows and DONE count. */
    static final class Statement {
        List<ResultColumn> columns;
        final List<Object[]> rows = new ArrayList<>();
        Long count;
    }

    final List<Statement> statements = new ArrayList<>();
    final List<String> infos = new ArrayList<>();
    int cancelAfter = -1;
    private Statement current;
    private int rowsSeen;

    @Override
    public void columns(List<ResultColumn> columns) {
        current = new Statement();
        current.columns = columns;
        statements.add(current);
    }

    @Override
    public void row(Object[] values) {
        current.rows.add(values);
        rowsSeen++;
    }

    @Override
    public void done(long count) {
        if (current == null) {
            current = new Statement();
            statements.add(current);
        }
        current.count = count;
        current = null;
    }

    @Override
    public void info(int number, String message) {
        infos.add(number + ": " + message);
    }

    @Override
    public boolean cancelled() {
        return cancelAfter >= 0 && rowsSeen >= cancelAfter;
    }

    /** The last result set (the last statement with columns). */
    Statement result() {
        for (int i = statements.size() - 1; i >= 0; i--) {
            if (statements.get(i).columns != null) {
                return statements.get(i);
            }
        }
        throw new AssertionError("no result set in " + statements.size() + " statements");
    }

    List<Object[]> rows() {
        return result().rows;
    }

    Object single() {
        List<Object[]> rows = rows();
        if (rows.size() != 1) {
            throw new AssertionError("expected one row, got " + rows.size());
        }
        return rows.get(0)[0];
    }

    ResultColumn column(int i) {
        return result().columns.get(i);
    }
}
