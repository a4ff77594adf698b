package io.dpone.certify;

import io.dpone.error.Blocker;
import java.util.List;

/**
 * The certification outcome of one route: {@code green} (run and quality report green, cleanup green, in every
 * measured repetition), {@code blocked} (a capability probe failed; the route did not run), {@code failed} (it ran
 * and something was red) or {@code probed} (preflight_only: every probe passed, nothing ran).
 *
 * <p>Over several repetitions, {@code duration_ms} and {@code rows_per_second} are the medians,
 * {@code rows_per_second_stats} gives median, min, max and spread, and {@code runs} lists every repetition in the
 * order measured; {@code rows}, {@code mb_per_second} and the blockers are those of the route's representative run
 * (its first red repetition, otherwise its median one).
 */
public record RouteDecision(String schema, String routeId, String status, boolean selectable, String safeTarget,
                            long rows, long durationMs, long rowsPerSecond, double mbPerSecond, boolean dqGreen,
                            boolean cleanupGreen, List<Blocker> blockers, int repetitions,
                            RateStats rowsPerSecondStats, List<Run> runs) {
    public static final String SCHEMA = "dpone.route_decision.v1";

    public RouteDecision {
        blockers = List.copyOf(blockers);
        runs = List.copyOf(runs);
    }

    /** One measured run: no repetitions yet, its own rows/s as the range. */
    public RouteDecision(String schema, String routeId, String status, boolean selectable, String safeTarget,
                         long rows, long durationMs, long rowsPerSecond, double mbPerSecond, boolean dqGreen,
                         boolean cleanupGreen, List<Blocker> blockers) {
        this(schema, routeId, status, selectable, safeTarget, rows, durationMs, rowsPerSecond, mbPerSecond, dqGreen,
            cleanupGreen, blockers, 1, RateStats.of(List.of(rowsPerSecond)), List.of());
    }

    /**
     * One measured repetition of a route.
     *
     * @param repetition the repetition, from 1
     * @param position   the route's place in that repetition's rotated order, from 1
     */
    /**
     * The route's first blocker as one line ({@code code: message}), or null when it has none: what the summaries
     * (the command's text, certification.md) show next to the codes, so the reason is read where the status is.
     */
    public String firstBlockerLine() {
        return blockers.isEmpty() ? null : blockers.get(0).code() + ": " + blockers.get(0).message();
    }

    public record Run(int repetition, int position, String status, long rows, long durationMs, long rowsPerSecond) {
    }
}
