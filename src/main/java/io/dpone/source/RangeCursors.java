package io.dpone.source;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Opens the cursors of a {@link ReadPlan}: the first range on the run's own reader, every further range on a
 * reader of its own (a JDBC connection runs one statement at a time), which its cursor closes with it.
 */
public final class RangeCursors {
    private RangeCursors() {
    }

    public static List<RowCursor> open(SourceReader primary, Supplier<SourceReader> more, SourceTable table,
                                       int fetchSize, long rowLimit, ReadPlan plan) {
        return open(primary, more, table, fetchSize, rowLimit, plan, io.dpone.retry.RetryBudget.none());
    }

    /**
     * As above, each range read resumable under {@code budget} ({@link ResumableRangeCursor}): a dropped connection
     * re-reads the rest of the range on a fresh reader. An unsplit read of a table with a single-column integer
     * primary key is read as the one range of every key, resumable too; any other unsplit read (no such key, or a
     * row-limited sample) is not.
     */
    public static List<RowCursor> open(SourceReader primary, Supplier<SourceReader> more, SourceTable table,
                                       int fetchSize, long rowLimit, ReadPlan plan,
                                       io.dpone.retry.RetryBudget budget) {
        if (!plan.split()) {
            KeyRange whole = rowLimit > 0 ? null : ReadPlan.wholeKey(table);
            if (whole == null || budget.settings().maxRetries() == 0) {
                return List.of(primary.open(table, fetchSize, rowLimit));
            }
            RowCursor first;
            try {
                first = primary.open(table, fetchSize, whole);
            } catch (UnsupportedOperationException noRanges) { // a reader that cannot read key ranges
                return List.of(primary.open(table, fetchSize, rowLimit));
            }
            return List.of(new ResumableRangeCursor(first, more, table, fetchSize, whole, budget));
        }
        List<RowCursor> cursors = new ArrayList<>();
        try {
            cursors.add(new ResumableRangeCursor(primary.open(table, fetchSize, plan.ranges().get(0)), more, table,
                fetchSize, plan.ranges().get(0), budget));
            for (KeyRange range : plan.ranges().subList(1, plan.ranges().size())) {
                SourceReader own = more.get();
                try {
                    cursors.add(new Owning(new ResumableRangeCursor(own.open(table, fetchSize, range), more, table,
                        fetchSize, range, budget), own));
                } catch (RuntimeException e) {
                    own.close();
                    throw e;
                }
            }
            return cursors;
        } catch (RuntimeException e) {
            cursors.forEach(RowCursor::close);
            throw e;
        }
    }

    /** A cursor that also closes the reader (connection) it was opened on. */
    private record Owning(RowCursor cursor, SourceReader reader) implements RowCursor {
        @Override
        public boolean next(Object[] row) {
            return cursor.next(row);
        }

        @Override
        public void close() {
            try {
                cursor.close();
            } finally {
                reader.close();
            }
        }
    }
}
