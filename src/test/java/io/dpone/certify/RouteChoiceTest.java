package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** preferred_route_id: the fastest median among green routes, or the tie-break when the ranges overlap. */
class RouteChoiceTest {
    static RouteDecision route(String id, String status, long... rowsPerSecond) {
        RateStats s = RateStats.of(java.util.Arrays.stream(rowsPerSecond).boxed().toList());
        return new RouteDecision(RouteDecision.SCHEMA, id, status, status.equals("green"), "cert." + id, 1000, 10,
            s.median(), 1.0, true, true, List.of(), rowsPerSecond.length, s, List.of());
    }

    @Test
    void overlappingRunnerUpIsWithinNoiseAndTheTieBreakPrefersFewerMovingParts() {
        RouteChoice c = RouteChoice.decide(List.of(
            route("object_storage_pull_s3", "green", 900, 1000, 1300),
            route("typed_binary_streaming", "green", 800, 950, 1000),
            route("typed_raw_streaming", "green", 100, 110, 120)));
        assertTrue(c.withinNoise());
        assertEquals("object_storage_pull_s3", c.fastestRouteId());
        assertEquals("typed_binary_streaming", c.runnerUpRouteId());
        assertEquals("typed_binary_streaming", c.preferredRouteId());
        assertEquals(List.of("object_storage_pull_s3", "typed_binary_streaming"), c.overlapping());
        assertEquals("fewer_moving_parts", c.tieBreak());
        assertEquals(RouteChoice.TIE_BREAK_ORDER, c.order());
    }

    @Test
    void tieBreakPicksAmongOverlappingRoutesOnlyNotTheEarliestRouteOverall() {
        RouteChoice c = RouteChoice.decide(List.of(
            route("object_storage_pull_s3", "green", 1000, 1100, 1200),
            route("object_storage_pull.file", "green", 950, 1000, 1050),
            route("typed_binary_streaming", "green", 100, 200, 300)));
        assertTrue(c.withinNoise());
        assertEquals("object_storage_pull.file", c.preferredRouteId());
    }

    @Test
    void clearMarginPrefersTheFastestMedianWithoutTieBreak() {
        RouteChoice c = RouteChoice.decide(List.of(
            route("typed_binary_streaming", "green", 800, 850, 899),
            route("object_storage_pull_s3", "green", 900, 1000, 1100)));
        assertFalse(c.withinNoise());
        assertEquals("object_storage_pull_s3", c.preferredRouteId());
        assertEquals("none", c.tieBreak());
        assertEquals(List.of("object_storage_pull_s3"), c.overlapping());
    }

    @Test
    void onlyGreenRoutesCompete() {
        RouteChoice c = RouteChoice.decide(List.of(
            route("typed_raw_streaming", "failed", 5000, 5000, 5000),
            route("typed_binary_streaming", "green", 100, 120, 140),
            route("object_storage_pull_s3cluster", "blocked")));
        assertEquals("typed_binary_streaming", c.preferredRouteId());
        assertNull(c.runnerUpRouteId());
        assertFalse(c.withinNoise());
    }

    @Test
    void noGreenRouteChoosesNothing() {
        RouteChoice c = RouteChoice.decide(List.of(route("typed_raw_streaming", "failed", 5)));
        assertNull(c.preferredRouteId());
        assertNull(c.fastestRouteId());
        assertFalse(c.withinNoise());
    }

    @Test
    void tieBreakOrderNamesEveryDefaultRouteOnce() {
        assertEquals(java.util.Set.copyOf(Scenario.DEFAULT_ROUTES), java.util.Set.copyOf(RouteChoice.TIE_BREAK_ORDER));
        assertEquals(Scenario.DEFAULT_ROUTES.size(), RouteChoice.TIE_BREAK_ORDER.size());
    }
}
