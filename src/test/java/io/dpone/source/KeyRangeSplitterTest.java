package io.dpone.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The ranges of a split partition every key: each key lies in exactly one range, none is empty. */
class KeyRangeSplitterTest {
    private static void assertPartition(long min, long max, int n) {
        List<KeyRange> ranges = KeyRangeSplitter.split("id", min, max, n);
        assertTrue(ranges.size() >= 1 && ranges.size() <= n, () -> ranges.toString());
        assertNull(ranges.get(0).fromInclusive(), "the first range is open below");
        assertNull(ranges.get(ranges.size() - 1).toExclusive(), "the last range is open above");
        for (int i = 1; i < ranges.size(); i++) {
            assertEquals(ranges.get(i - 1).toExclusive(), ranges.get(i).fromInclusive(), "ranges must abut");
        }
        // every key in and around [min, max] (bounded probe for wide spans) is in exactly one range
        long from = Math.max(min, Long.MIN_VALUE + 3) - 3;
        long to = Math.min(max, Long.MAX_VALUE - 3) + 3;
        for (long k = from; k <= to && k - from < 5_000; k++) {
            long key = k;
            assertEquals(1, ranges.stream().filter(r -> r.contains(key)).count(), () -> "key " + key + " " + ranges);
        }
        for (KeyRange r : ranges) {
            if (r.fromInclusive() != null) {
                assertTrue(r.fromInclusive() > min && r.fromInclusive() <= max, "cuts lie inside the span: " + r);
            }
        }
    }

    @Test
    void partitionsSmallAndNegativeSpans() {
        for (int n = 1; n <= 9; n++) {
            assertPartition(1, 1000, n);
            assertPartition(-500, 499, n);
            assertPartition(-7, -3, n);
            assertPartition(42, 42, n);
            assertPartition(0, 1, n);
        }
    }

    @Test
    void moreReadersThanKeysGivesAtMostOneRangePerKey() {
        assertEquals(1, KeyRangeSplitter.split("id", 5, 5, 8).size());
        assertEquals(3, KeyRangeSplitter.split("id", 5, 7, 8).size());
        assertPartition(5, 7, 8);
    }

    @Test
    void extremeBoundsDoNotOverflow() {
        assertPartition(Long.MIN_VALUE, Long.MAX_VALUE, 4);
        assertPartition(Long.MAX_VALUE - 10, Long.MAX_VALUE, 3);
        assertPartition(Long.MIN_VALUE, Long.MIN_VALUE + 2, 5);
        List<KeyRange> r = KeyRangeSplitter.split("id", Long.MIN_VALUE, Long.MAX_VALUE, 2);
        assertEquals(0L, r.get(1).fromInclusive());
        assertEquals(Long.MAX_VALUE, KeyRangeSplitter.span(Long.MIN_VALUE, Long.MAX_VALUE));
        assertEquals(1, KeyRangeSplitter.span(9, 9));
    }

    @Test
    void equalWidthCuts() {
        List<KeyRange> r = KeyRangeSplitter.split("id", 1, 1_000_000, 2);
        assertEquals(List.of(new KeyRange("id", null, 500_001L), new KeyRange("id", 500_001L, null)), r);
    }
}
