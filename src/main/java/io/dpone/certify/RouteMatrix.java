package io.dpone.certify;

import io.dpone.route.ProbeResult;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a scenario's routes for measurement: when the scenario reads source data, one untimed warm-up run of every
 * route on at most {@value #WARMUP_ROWS} rows (so class loading, JIT and each route's first use of an engine land
 * in no measured figure), then {@code repetitions} measured rounds, round {@code i} in the order
 * {@link RouteRotation#order} gives. Each route's repetitions are folded into one {@link RouteDecision}.
 */
final class RouteMatrix {
    static final long WARMUP_ROWS = 1_000;

    /** One run of one route: the real {@link RouteCertifier}, or a fake in tests. */
    @FunctionalInterface
    interface Trial {
        RouteCertifier.Outcome run(String routeId, String runId, long rowLimit, ProgressListener progress);
    }

    /**
     * Each route's folded decision (scenario order), its representative run report and probe results, and how it
     * was measured.
     */
    record Result(List<RouteDecision> decisions, Map<String, RunReport> reports,
                  Map<String, List<ProbeResult>> probes, RouteMeasurement measurement) {
    }

    private final Trial trial;

    RouteMatrix(Trial trial) {
        this.trial = trial;
    }

    Result run(Scenario scenario, String runId, Certification.RouteProgress progress) {
        List<String> routes = scenario.routes();
        int repetitions = scenario.readsSource() ? scenario.repetitions() : 1;
        long warmupLimit = scenario.rowLimit() > 0 ? Math.min(scenario.rowLimit(), WARMUP_ROWS) : WARMUP_ROWS;
        if (scenario.readsSource()) {
            for (String route : routes) {
                trial.run(route, runId + ".warmup", warmupLimit, ProgressListener.NONE);
            }
        }
        Map<String, List<Measured>> byRoute = new LinkedHashMap<>();
        routes.forEach(r -> byRoute.put(r, new ArrayList<>()));
        List<List<String>> orders = new ArrayList<>();
        int started = 0;
        for (int rep = 0; rep < repetitions; rep++) {
            List<String> order = RouteRotation.order(routes, rep);
            orders.add(order);
            String repRunId = repetitions == 1 ? runId : runId + ".r" + (rep + 1);
            for (int pos = 0; pos < order.size(); pos++) {
                String route = order.get(pos);
                ProgressListener rows = progress.route(++started, routes.size() * repetitions, route);
                RouteCertifier.Outcome o = trial.run(route, repRunId, scenario.rowLimit(), rows);
                byRoute.get(route).add(new Measured(rep + 1, pos + 1, o));
            }
        }
        List<RouteDecision> decisions = new ArrayList<>();
        Map<String, RunReport> reports = new LinkedHashMap<>();
        Map<String, List<ProbeResult>> probes = new LinkedHashMap<>();
        byRoute.forEach((route, runs) -> {
            Measured representative = representative(runs);
            decisions.add(fold(runs, representative.outcome().decision(), repetitions));
            if (representative.outcome().report() != null) {
                reports.put(route, representative.outcome().report());
            }
            probes.put(route, representative.outcome().probes());
        });
        return new Result(decisions, reports, probes, new RouteMeasurement(repetitions, scenario.readsSource(),
            scenario.readsSource() ? warmupLimit : 0, scenario.readsSource() ? routes : List.of(), orders));
    }

    /** The route's first red repetition, otherwise its median one by rows/s (the lower of the two middle ones). */
    private static Measured representative(List<Measured> runs) {
        return runs.stream().filter(m -> !m.green()).findFirst().orElseGet(() -> runs.stream()
            .sorted(Comparator.comparingLong(m -> m.outcome().decision().rowsPerSecond()))
            .toList().get((runs.size() - 1) / 2));
    }

    private static RouteDecision fold(List<Measured> runs, RouteDecision rep, int repetitions) {
        List<RouteDecision> all = runs.stream().map(m -> m.outcome().decision()).toList();
        String status = all.stream().allMatch(d -> d.status().equals("green")) ? "green"
            : all.stream().anyMatch(d -> d.status().equals("failed")) ? "failed" : rep.status();
        RateStats rate = RateStats.of(all.stream().map(RouteDecision::rowsPerSecond).toList());
        RateStats duration = RateStats.of(all.stream().map(RouteDecision::durationMs).toList());
        return new RouteDecision(rep.schema(), rep.routeId(), status, "green".equals(status), rep.safeTarget(),
            rep.rows(), duration.median(), rate.median(), rep.mbPerSecond(),
            all.stream().allMatch(RouteDecision::dqGreen), all.stream().allMatch(RouteDecision::cleanupGreen),
            rep.blockers(), repetitions, rate, runs.stream().map(m -> new RouteDecision.Run(m.repetition(),
                m.position(), m.outcome().decision().status(), m.outcome().decision().rows(),
                m.outcome().decision().durationMs(), m.outcome().decision().rowsPerSecond())).toList());
    }

    private record Measured(int repetition, int position, RouteCertifier.Outcome outcome) {
        boolean green() {
            String s = outcome.decision().status();
            return s.equals("green") || s.equals("probed");
        }
    }
}
