package io.dpone.certify;

import java.util.List;

/**
 * How the routes were measured ({@code measurement} in certification.json).
 *
 * @param repetitions    measured runs per route (1 for preflight_only, which measures nothing)
 * @param warmup         whether an untimed warm-up run of every route came first (scenarios that read source)
 * @param warmupRowLimit the warm-up runs' row limit, 0 without warm-up
 * @param warmupRoutes   the routes warmed up, in that order
 * @param orders         each repetition's route order: repetition i starts at route i mod R
 */
public record RouteMeasurement(int repetitions, boolean warmup, long warmupRowLimit, List<String> warmupRoutes,
                               List<List<String>> orders) {
    public RouteMeasurement {
        warmupRoutes = List.copyOf(warmupRoutes);
        orders = orders.stream().map(List::copyOf).toList();
    }
}
