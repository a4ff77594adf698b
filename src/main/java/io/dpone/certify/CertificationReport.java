package io.dpone.certify;

import io.dpone.error.Blocker;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code certification.json}: schema {@value #SCHEMA}. {@code decision} says how {@code preferred_route_id} was
 * chosen (within noise or not, and the tie-break); {@code measurement} says how the routes were measured (warm-up,
 * repetitions, the rotated order of each repetition).
 */
public record CertificationReport(String schema, String runId, String scenario, String pipeline, boolean passed,
                                  String preferredRouteId, List<RouteDecision> routes, List<Blocker> blockers,
                                  List<String> warnings, Map<String, Object> safeOverrides,
                                  Map<String, String> artifacts, Instant startedAt, Instant finishedAt,
                                  RouteChoice decision, RouteMeasurement measurement) {
    public static final String SCHEMA = "dpone.route_capability_certification.v1";

    public CertificationReport {
        routes = List.copyOf(routes);
        blockers = List.copyOf(blockers);
        warnings = List.copyOf(warnings);
    }
}
