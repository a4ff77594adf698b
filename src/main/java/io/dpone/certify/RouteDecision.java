package io.dpone.certify;

import io.dpone.error.Blocker;
import java.util.List;

/**
 * The certification outcome of one route: {@code green} (run and quality report green, cleanup green),
 * {@code blocked} (a capability probe failed; the route did not run), {@code failed} (it ran and something was
 * red) or {@code probed} (preflight_only: every probe passed, nothing ran).
 */
public record RouteDecision(String schema, String routeId, String status, boolean selectable, String safeTarget,
                            long rows, long durationMs, long rowsPerSecond, double mbPerSecond, boolean dqGreen,
                            boolean cleanupGreen, List<Blocker> blockers) {
    public static final String SCHEMA = "dpone.route_decision.v1";

    public RouteDecision {
        blockers = List.copyOf(blockers);
    }
}
