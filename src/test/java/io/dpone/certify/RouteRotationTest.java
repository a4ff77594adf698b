package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Repetition i starts at route i mod R. */
class RouteRotationTest {
    @Test
    void eachRepetitionStartsOneRouteLaterAndWrapsAround() {
        List<String> routes = List.of("a", "b", "c");
        assertEquals(List.of("a", "b", "c"), RouteRotation.order(routes, 0));
        assertEquals(List.of("b", "c", "a"), RouteRotation.order(routes, 1));
        assertEquals(List.of("c", "a", "b"), RouteRotation.order(routes, 2));
        assertEquals(List.of("a", "b", "c"), RouteRotation.order(routes, 3));
        assertEquals(List.of("c", "a", "b"), RouteRotation.order(routes, 5));
    }

    @Test
    void overRRepetitionsEveryRouteTakesEveryPosition() {
        List<String> routes = Scenario.DEFAULT_ROUTES;
        for (int pos = 0; pos < routes.size(); pos++) {
            int p = pos;
            assertEquals(Set.copyOf(routes), IntStream.range(0, routes.size())
                .mapToObj(i -> RouteRotation.order(routes, i).get(p)).collect(Collectors.toSet()), "position " + p);
        }
    }
}
