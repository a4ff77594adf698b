package io.dpone.source;

import io.dpone.manifest.TableRef;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A {@link SourceReader} of one table held in memory, for tests above the reader: {@code rows} rows, row {@code i}
 * made by {@code row.apply(i)} in the table's column order. It cannot split key ranges (one reader, as for a table
 * without an integer key). {@link #opened()} counts the cursors opened.
 */
public final class InMemorySourceReader implements SourceReader {
    private final SourceTable table;
    private final int rows;
    private final IntFunction<Object[]> row;
    private int opened;
    private boolean closed;

    public InMemorySourceReader(SourceTable table, int rows, IntFunction<Object[]> row) {
        this.table = table;
        this.rows = rows;
        this.row = row;
    }

    @Override
    public SourceTable describe(TableRef ref, List<String> columns) {
        if (!ref.equals(table.ref())) {
            throw new IllegalArgumentException("no table " + ref);
        }
        return table;
    }

    @Override
    public synchronized RowCursor open(SourceTable t, int fetchSize, long rowLimit) {
        opened++;
        long end = rowLimit == 0 ? rows : Math.min(rows, rowLimit);
        return new RowCursor() {
            int next;

            @Override
            public boolean next(Object[] out) {
                if (next >= end) {
                    return false;
                }
                Object[] values = row.apply(next++);
                System.arraycopy(values, 0, out, 0, values.length);
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    public synchronized int opened() {
        return opened;
    }

    public synchronized boolean closed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
