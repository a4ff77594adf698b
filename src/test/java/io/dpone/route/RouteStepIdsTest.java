package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.camel.model.Model;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.RouteDefinition;
import org.junit.jupiter.api.Test;

/**
 * Every step of every shipped route has its own id ({@code <route id>.<step>}, or {@code error_policy.<step>} for the
 * shared error policy's steps), so JMX, the phase watchdog and Camel's source locations name it instead of
 * {@code process3}.
 */
class RouteStepIdsTest {
    @Test
    void everyShippedStepHasAnIdNamedForItsRoute() {
        try (DponeCamel camel = DponeCamel.start(null, false)) {
            List<RouteDefinition> routes = camel.context().getCamelContextExtension().getContextPlugin(Model.class)
                .getRouteDefinitions();
            assertTrue(routes.size() >= 8, routes.toString());
            List<String> missing = new ArrayList<>();
            int steps = 0;
            for (RouteDefinition route : routes) {
                List<ProcessorDefinition<?>> todo = new ArrayList<>(route.getOutputs());
                while (!todo.isEmpty()) {
                    ProcessorDefinition<?> step = todo.remove(0);
                    steps++;
                    todo.addAll(step.getOutputs());
                    String prefix = route.getRouteId().equals("cdc_runtime_tick") ? "cdc_" : route.getRouteId() + ".";
                    // a templated route's node ids get its prefixId (streaming_load.yaml) at runtime
                    String prefixed = (route.getNodePrefixId() == null ? "" : route.getNodePrefixId()) + step.getId();
                    boolean named = step.hasCustomIdAssigned() && (step.getId().startsWith(prefix)
                        || prefixed.startsWith(prefix) || step.getId().startsWith("error_policy."));
                    if (!named) {
                        missing.add(route.getRouteId() + ": " + step.getShortName() + " " + step.getId());
                    }
                }
            }
            assertEquals(List.of(), missing);
            assertTrue(steps >= 60, "steps seen: " + steps);
        }
    }
}
