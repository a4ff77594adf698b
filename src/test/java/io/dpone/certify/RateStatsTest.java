package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Median, range and spread of a route's rows/s over its repetitions. */
class RateStatsTest {
    @Test
    void oddCountTakesTheMiddleValueWhateverTheInputOrder() {
        RateStats s = RateStats.of(List.of(300L, 100L, 200L));
        assertEquals(new RateStats(200, 100, 300, 200, 100.0), s);
    }

    @Test
    void evenCountTakesTheMeanOfTheTwoMiddleValues() {
        assertEquals(250, RateStats.of(List.of(400L, 100L, 200L, 300L)).median());
        assertEquals(151, RateStats.of(List.of(100L, 201L)).median(), "half rounds up");
    }

    @Test
    void singleRunIsItsOwnRangeAndNoRunIsNone() {
        assertEquals(new RateStats(70, 70, 70, 0, 0.0), RateStats.of(List.of(70L)));
        assertEquals(RateStats.NONE, RateStats.of(List.of()));
    }

    @Test
    void spreadPercentIsOfTheMedianToOneDecimal() {
        assertEquals(33.3, RateStats.of(List.of(900L, 1200L, 900L)).spreadPct());
        assertEquals(30.0, RateStats.of(List.of(900L, 1200L, 1000L)).spreadPct());
        assertEquals(0.0, RateStats.of(List.of(0L, 0L)).spreadPct(), "no median, no percentage");
    }

    @Test
    void rangesOverlapWhenTheyShareAValueIncludingTheirEnds() {
        RateStats a = RateStats.of(List.of(100L, 200L));
        assertTrue(a.overlaps(RateStats.of(List.of(150L, 400L))));
        assertTrue(a.overlaps(RateStats.of(List.of(200L, 300L))));
        assertTrue(RateStats.of(List.of(120L, 130L)).overlaps(a), "contained");
        assertFalse(a.overlaps(RateStats.of(List.of(201L, 300L))));
        assertFalse(RateStats.of(List.of(201L, 300L)).overlaps(a));
    }
}
