package io.dpone.source;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Opens the cursors of a {@link ReadPlan}: the first range on the run's own reader, every further range on a
 * reader of its own (a JDBC connection runs one statement at a time), which its cursor closes with it. Each range's
 * cursor counts its rows; once every range has been read to its end, {@code onRead} gets the counts (the measured
 * skew of the split, against the plan's estimates).
 */
public final class RangeCursors {
    private RangeCursors() {
    }

    public static List<RowCursor> open(SourceReader primary, Supplier<SourceReader> more, SourceTable table,
                                       int fetchSize, long rowLimit, ReadPlan plan) {
        return open(primary, more, table, fetchSize, rowLimit, plan, io.dpone.retry.RetryBudget.none(), counts -> { });
    }

    /**
     * As above, each range read resumable under {@code budget} ({@link ResumableRangeCursor}): a dropped connection
     * re-reads the rest of the range on a fresh reader. An unsplit read of a table with a single-column integer
     * primary key is read as the one range of every key, resumable too; any other unsplit read (no such key, or a
     * row-limited sample) is not.
     */
    public static List<RowCursor> open(SourceReader primary, Supplier<SourceReader> more, SourceTable table,
                                       int fetchSize, long rowLimit, ReadPlan plan,
                                       io.dpone.retry.RetryBudget budget, Consumer<long[]> onRead) {
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
        Tally tally = new Tally(plan.ranges().size(), onRead);
        List<RowCursor> cursors = new ArrayList<>();
        try {
            cursors.add(new Counted(new ResumableRangeCursor(primary.open(table, fetchSize, plan.ranges().get(0)),
                more, table, fetchSize, plan.ranges().get(0), budget), tally, 0));
            for (int i = 1; i < plan.ranges().size(); i++) {
                KeyRange range = plan.ranges().get(i);
                SourceReader own = more.get();
                try {
                    cursors.add(new Owning(new Counted(new ResumableRangeCursor(own.open(table, fetchSize, range), more,
                        table, fetchSize, range, budget), tally, i), own));
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

    /** The rows read per range, handed on once when the last range ends. */
    private static final class Tally {
        private final AtomicLongArray rows;
        private final AtomicInteger open;
        private final Consumer<long[]> onRead;

        Tally(int ranges, Consumer<long[]> onRead) {
            this.rows = new AtomicLongArray(ranges);
            this.open = new AtomicInteger(ranges);
            this.onRead = onRead;
        }

        void ended() {
            if (open.decrementAndGet() == 0) {
                long[] counts = new long[rows.length()];
                for (int i = 0; i < counts.length; i++) {
                    counts[i] = rows.get(i);
                }
                onRead.accept(counts);
            }
        }
    }

    /** A range's cursor that counts its rows and reports its end once. */
    private static final class Counted implements RowCursor {
        private final RowCursor cursor;
        private final Tally tally;
        private final int index;
        private boolean ended;

        Counted(RowCursor cursor, Tally tally, int index) {
            this.cursor = cursor;
            this.tally = tally;
            this.index = index;
        }

        @Override
        public boolean next(Object[] row) {
            if (cursor.next(row)) {
                tally.rows.incrementAndGet(index);
                return true;
            }
            if (!ended) {
                ended = true;
                tally.ended();
            }
            return false;
        }

        @Override
        public void close() {
            cursor.close();
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
