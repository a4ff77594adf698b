package io.dpone.source;

import io.dpone.retry.OperationKind;
import io.dpone.retry.RetryBudget;
import java.util.function.Supplier;

/**
 * A key-range read (issue 35) that survives a dropped source connection: the range is read in key order
 * ({@link SqlServerDialect#selectRange}), the last key delivered is kept, and after a transient failure (a dropped
 * TDS connection, a timeout: {@link io.dpone.retry.TransientFaults}) the rest of the range is read again on a fresh
 * connection under the run's {@link RetryBudget} ({@code source_read}): from the last key delivered (inclusive: a
 * range bound is, whatever the key's columns and types) with that one row, which the primary key makes unique,
 * skipped. Every row of the range
 * is delivered once: the rows before the drop are not read again, the rows after it are read from the new
 * connection's snapshot (the same guarantee a read without a drop gives a table that changes while it is read).
 * A permanent failure, or a transient one beyond the budget, ends the read as before.
 */
public final class ResumableRangeCursor implements RowCursor {
    private final Supplier<SourceReader> fresh;
    private final SourceTable table;
    private final int fetchSize;
    private final KeyRange range;
    private final int[] keyIndexes;
    private final RetryBudget budget;
    private RowCursor cursor;
    private SourceReader owned;
    /** The key columns' values of the last row delivered, copied in place (no allocation per row); valid once delivered. */
    private final Object[] lastKey;
    private boolean delivered;

    /**
     * Reads {@code range} of {@code table} starting on {@code first} (a cursor over the whole range, opened on the
     * caller's reader, which the caller closes); each re-read opens a reader of its own with {@code fresh}.
     */
    public ResumableRangeCursor(RowCursor first, Supplier<SourceReader> fresh, SourceTable table, int fetchSize,
                                KeyRange range, RetryBudget budget) {
        this.cursor = first;
        this.fresh = fresh;
        this.table = table;
        this.fetchSize = fetchSize;
        this.range = range;
        this.budget = budget;
        this.keyIndexes = new int[range.columns().size()];
        for (int k = 0; k < keyIndexes.length; k++) {
            int index = -1;
            for (int i = 0; i < table.columns().size(); i++) {
                if (table.columns().get(i).name().equalsIgnoreCase(range.columns().get(k))) {
                    index = i;
                }
            }
            if (index < 0) {
                throw new IllegalArgumentException("the range's key is not a selected column");
            }
            keyIndexes[k] = index;
        }
        this.lastKey = new Object[keyIndexes.length];
    }

    @Override
    public boolean next(Object[] row) {
        boolean more;
        try {
            more = cursor.next(row);
        } catch (RuntimeException e) {
            closeCurrent();
            more = budget.recover(OperationKind.SOURCE_READ, e, () -> reopenAndNext(row));
        }
        if (more) {
            for (int i = 0; i < keyIndexes.length; i++) {
                lastKey[i] = row[keyIndexes[i]];
            }
            delivered = true;
        }
        return more;
    }

    private java.util.List<Object> key(Object[] row) {
        Object[] k = new Object[keyIndexes.length];
        for (int i = 0; i < k.length; i++) {
            k[i] = row[keyIndexes[i]];
        }
        return java.util.Arrays.asList(k);
    }

    /**
     * Opens the rest of the range (from the last key delivered) on a fresh reader and reads its first row after
     * that key.
     */
    private boolean reopenAndNext(Object[] row) {
        closeCurrent();
        java.util.List<Object> last = delivered ? java.util.List.of(lastKey.clone()) : null;
        KeyRange rest = last == null ? range : new KeyRange(range.columns(), last, range.to());
        SourceReader reader = fresh.get();
        try {
            cursor = reader.open(table, fetchSize, rest);
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
        owned = reader;
        try {
            boolean more = cursor.next(row);
            if (more && last != null && key(row).equals(last)) {
                more = cursor.next(row); // the last key delivered, read again from the inclusive bound
            }
            return more;
        } catch (RuntimeException e) {
            closeCurrent();
            throw e;
        }
    }

    private void closeCurrent() {
        RowCursor c = cursor;
        SourceReader r = owned;
        cursor = EMPTY;
        owned = null;
        try {
            c.close();
        } catch (RuntimeException ignored) {
            // the connection under it broke already
        } finally {
            if (r != null) {
                r.close();
            }
        }
    }

    @Override
    public void close() {
        closeCurrent();
    }

    private static final RowCursor EMPTY = new RowCursor() {
        @Override
        public boolean next(Object[] row) {
            throw new IllegalStateException("the range's cursor is closed");
        }

        @Override
        public void close() {
        }
    };
}
