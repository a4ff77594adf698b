package io.dpone.certify;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of one measured repetition: repetition {@code i} (from 0) starts at route {@code i mod R} and goes
 * round the scenario's list, so over R repetitions every route is measured once in every position and none always
 * runs first (right after the warm-up) or last.
 */
final class RouteRotation {
    private RouteRotation() {
    }

    static List<String> order(List<String> routes, int repetition) {
        List<String> order = new ArrayList<>(routes.size());
        for (int k = 0; k < routes.size(); k++) {
            order.add(routes.get((repetition + k) % routes.size()));
        }
        return order;
    }
}
