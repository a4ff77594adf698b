package io.dpone.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LongHashSetTest {
    @Test
    void countsLikeAHashSetThroughGrowthWithZeroAndNegativeValues() {
        LongHashSet set = new LongHashSet();
        Set<Long> expected = new HashSet<>();
        Random random = new Random(42);
        for (int i = 0; i < 200_000; i++) {
            // a narrow range forces repeats; zero and negatives are ordinary values
            long v = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(50_000) - 25_000;
            assertEquals(expected.add(v), set.add(v), "add(" + v + ")");
        }
        assertEquals(expected.size(), set.size());
        assertTrue(expected.contains(0L), "the sample must exercise the zero value");
    }

    @Test
    void zeroIsCountedOnce() {
        LongHashSet set = new LongHashSet();
        assertTrue(set.add(0));
        assertFalse(set.add(0));
        assertTrue(set.add(1));
        assertEquals(2, set.size());
    }

    @Test
    void valuesThatCollideInTheTableStayDistinct() {
        LongHashSet set = new LongHashSet();
        // multiples of a large power of two land in few slots of a small table: probing must keep them apart
        for (long i = 1; i <= 5_000; i++) {
            assertTrue(set.add(i << 40));
        }
        for (long i = 1; i <= 5_000; i++) {
            assertFalse(set.add(i << 40));
        }
        assertEquals(5_000, set.size());
    }
}
