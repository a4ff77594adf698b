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
        if (!plan.split()) {
            return List.of(primary.open(table, fetchSize, rowLimit));
        }
        List<RowCursor> cursors = new ArrayList<>();
        try {
            cursors.add(primary.open(table, fetchSize, plan.ranges().get(0)));
            for (KeyRange range : plan.ranges().subList(1, plan.ranges().size())) {
                SourceReader own = more.get();
                try {
                    cursors.add(new Owning(own.open(table, fetchSize, range), own));
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
