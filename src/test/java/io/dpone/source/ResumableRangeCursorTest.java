package io.dpone.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.error.BlockerCode;
import io.dpone.manifest.TableRef;
import io.dpone.retry.RetryBudget;
import io.dpone.retry.RetrySettings;
import io.dpone.retry.TransientFailure;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.StringType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A dropped connection in the middle of a composite-key range: the rest of the range is read again from the last key
 * delivered (an inclusive bound), that row skipped, so every row of the range arrives exactly once.
 */
class ResumableRangeCursorTest {
    private static final SourceTable TABLE = new SourceTable(new TableRef("dbo", "t"), List.of(
        new SourceColumn("a", "int", false, new IntegerType(32, false)),
        new SourceColumn("b", "varchar", false, new StringType()),
        new SourceColumn("v", "int", true, new IntegerType(32, false))), List.of("a", "b"));
    private static final List<Comparator<Object>> ORDER = List.of(
        Comparator.comparing(o -> (Integer) o), Comparator.comparing(o -> (String) o));

    @Test
    void aCompositeKeyRangeDroppedMidwayIsReadOnceFromTheLastKeyDelivered() {
        List<Object[]> rows = new ArrayList<>();
        for (int a = 1; a <= 4; a++) {
            for (String b : List.of("x", "y", "z")) {
                rows.add(new Object[] {a, b, a * 10});
            }
        }
        KeyRange range = new KeyRange(List.of("a", "b"), List.of(1, "y"), List.of(4, "y"));
        List<KeyRange> opened = new ArrayList<>();
        int[] drops = {2};
        SourceReader reader = new SourceReader() {
            @Override
            public SourceTable describe(TableRef table, List<String> columns) {
                return TABLE;
            }

            @Override
            public RowCursor open(SourceTable table, int fetchSize, long rowLimit) {
                throw new UnsupportedOperationException();
            }

            @Override
            public RowCursor open(SourceTable table, int fetchSize, KeyRange r) {
                opened.add(r);
                List<Object[]> in = rows.stream().filter(x -> r.contains(List.of(x[0], x[1]), ORDER)).toList();
                boolean drop = drops[0]-- > 0;
                return new RowCursor() {
                    int i;

                    @Override
                    public boolean next(Object[] row) {
                        if (drop && i == 2) {
                            throw new TransientFailure(BlockerCode.SOURCE_READ_FAILED, "source.table",
                                "connection reset");
                        }
                        if (i >= in.size()) {
                            return false;
                        }
                        System.arraycopy(in.get(i++), 0, row, 0, row.length);
                        return true;
                    }

                    @Override
                    public void close() {
                    }
                };
            }

            @Override
            public void close() {
            }
        };
        RetryBudget budget = new RetryBudget(new RetrySettings(5, Duration.ofMinutes(1), Duration.ofMillis(1),
            Duration.ofMillis(2)));
        List<String> read = new ArrayList<>();
        try (RowCursor c = new ResumableRangeCursor(reader.open(TABLE, 10, range), () -> reader, TABLE, 10, range,
                budget)) {
            Object[] row = new Object[3];
            while (c.next(row)) {
                read.add(row[0] + "" + row[1]);
            }
        }
        assertEquals(List.of("1y", "1z", "2x", "2y", "2z", "3x", "3y", "3z", "4x"), read, "each row once, in order");
        assertEquals(3, opened.size(), "the range, then twice its rest after a drop");
        assertEquals(List.of(1, "z"), opened.get(1).from(), "the rest starts at the last key delivered");
        assertEquals(List.of(2, "x"), opened.get(2).from(), "the second drop came after 2x");
        assertEquals(range.to(), opened.get(2).to());
    }
}
