package io.dpone.certify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.route.ProgressListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Warm-up, rotated repetitions and folding, on a fake route set whose runs return scripted rows/s. */
class RouteMatrixTest {
    /** Records every call; each route answers its scripted (status, rows/s) pairs in turn. */
    static final class FakeRoutes implements RouteMatrix.Trial {
        final List<String> calls = new ArrayList<>();
        final Map<String, Deque<Object[]>> script = new HashMap<>();

        FakeRoutes answer(String route, String status, long rowsPerSecond) {
            script.computeIfAbsent(route, r -> new ArrayDeque<>()).add(new Object[] {status, rowsPerSecond});
            return this;
        }

        @Override
        public RouteCertifier.Outcome run(String routeId, String runId, long rowLimit, ProgressListener progress) {
            calls.add(runId + " " + routeId + " " + rowLimit);
            Object[] a = runId.endsWith(".warmup") ? new Object[] {"green", 1L} : script.get(routeId).poll();
            String status = (String) a[0];
            long rps = (Long) a[1];
            List<Blocker> blockers = status.equals("blocked")
                ? List.of(Blocker.of(io.dpone.error.BlockerCode.INTERNAL_ERROR, routeId, "scripted")) : List.of();
            return new RouteCertifier.Outcome(new RouteDecision(RouteDecision.SCHEMA, routeId, status,
                status.equals("green"), "cert." + routeId, 1000, 1_000_000 / Math.max(rps, 1), rps, 1.0,
                !status.equals("failed"), true, blockers), null);
        }
    }

    @Test
    void warmsUpEveryRouteOnceThenMeasuresInRotatedOrder() {
        FakeRoutes fake = new FakeRoutes();
        for (String r : List.of("a", "b", "c")) {
            fake.answer(r, "green", 10).answer(r, "green", 20).answer(r, "green", 30);
        }
        RouteMatrix.Result res = new RouteMatrix(fake).run(new Scenario("s", List.of("a", "b", "c"), 5000, true, 3),
            "run", Certification.RouteProgress.NONE);
        assertEquals(List.of(
            "run.warmup a 1000", "run.warmup b 1000", "run.warmup c 1000",
            "run.r1 a 5000", "run.r1 b 5000", "run.r1 c 5000",
            "run.r2 b 5000", "run.r2 c 5000", "run.r2 a 5000",
            "run.r3 c 5000", "run.r3 a 5000", "run.r3 b 5000"), fake.calls);
        assertEquals(List.of(List.of("a", "b", "c"), List.of("b", "c", "a"), List.of("c", "a", "b")),
            res.measurement().orders());
        assertTrue(res.measurement().warmup());
        assertEquals(1000, res.measurement().warmupRowLimit());
        RouteDecision b = res.decisions().get(1);
        assertEquals("b", b.routeId());
        assertEquals(new RateStats(20, 10, 30, 20, 100.0), b.rowsPerSecondStats());
        assertEquals(20, b.rowsPerSecond(), "rows_per_second is the median");
        assertEquals(List.of(2, 1, 3), b.runs().stream().map(RouteDecision.Run::position).toList());
        assertEquals(List.of(1, 2, 3), b.runs().stream().map(RouteDecision.Run::repetition).toList());
        assertEquals(List.of("a", "b", "c"), res.decisions().stream().map(RouteDecision::routeId).toList(),
            "decisions keep the scenario's order");
    }

    @Test
    void warmUpRowsAreCappedByTheScenarioRowLimitAndOneRepetitionKeepsTheRunId() {
        FakeRoutes fake = new FakeRoutes().answer("a", "green", 10);
        new RouteMatrix(fake).run(new Scenario("s", List.of("a"), 300, true, 1), "run",
            Certification.RouteProgress.NONE);
        assertEquals(List.of("run.warmup a 300", "run a 300"), fake.calls);
    }

    @Test
    void oneRedRepetitionMakesTheRouteNotGreenAndItsRunRepresentsIt() {
        FakeRoutes fake = new FakeRoutes()
            .answer("a", "green", 100).answer("a", "failed", 100).answer("a", "green", 100)
            .answer("b", "green", 50).answer("b", "blocked", 0).answer("b", "green", 50);
        RouteMatrix.Result res = new RouteMatrix(fake).run(new Scenario("s", List.of("a", "b"), 0, true, 3),
            "run", Certification.RouteProgress.NONE);
        Map<String, RouteDecision> d = res.decisions().stream()
            .collect(Collectors.toMap(RouteDecision::routeId, x -> x));
        assertEquals("failed", d.get("a").status());
        assertFalse(d.get("a").selectable());
        assertFalse(d.get("a").dqGreen());
        assertEquals("blocked", d.get("b").status());
        assertEquals(List.of("runtime.internal_error"), d.get("b").blockers().stream().map(Blocker::code).toList());
        assertEquals(null, RouteChoice.decide(res.decisions()).preferredRouteId());
    }

    @Test
    void preflightRunsEachRouteOnceWithoutWarmUp() {
        FakeRoutes fake = new FakeRoutes().answer("a", "probed", 0).answer("b", "blocked", 0);
        RouteMatrix.Result res = new RouteMatrix(fake).run(new Scenario("preflight_only", List.of("a", "b"), 0, false,
            3), "run", Certification.RouteProgress.NONE);
        assertEquals(List.of("run a 0", "run b 0"), fake.calls);
        assertFalse(res.measurement().warmup());
        assertEquals(1, res.measurement().repetitions());
        assertEquals(List.of("probed", "blocked"), res.decisions().stream().map(RouteDecision::status).toList());
    }
}
