package io.dpone.certify;

import io.dpone.error.Blocker;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code certification.json}: schema {@value #SCHEMA}. {@code decision} says how {@code preferred_route_id} was
 * chosen (within noise or not, and the tie-break); {@code measurement} says how the routes were measured (warm-up,
 * repetitions, the rotated order of each repetition). {@code buildCommit} is the commit the running build was made
 * from ({@link io.dpone.report.BuildInfo}), so evidence names the exact code it certifies.
 */
public record CertificationReport(String schema, String runId, String scenario, String pipeline, boolean passed,
                                  String preferredRouteId, List<RouteDecision> routes, List<Blocker> blockers,
                                  List<String> warnings, Map<String, Object> safeOverrides,
                                  Map<String, String> artifacts, Instant startedAt, Instant finishedAt,
                                  RouteChoice decision, RouteMeasurement measurement, String buildCommit) {
    public static final String SCHEMA = "dpone.route_capability_certification.v1";

    public CertificationReport {
        routes = List.copyOf(routes);
        blockers = List.copyOf(blockers);
        warnings = List.copyOf(warnings);
    }

    /** A report of the running build. */
    public CertificationReport(String schema, String runId, String scenario, String pipeline, boolean passed,
                               String preferredRouteId, List<RouteDecision> routes, List<Blocker> blockers,
                               List<String> warnings, Map<String, Object> safeOverrides,
                               Map<String, String> artifacts, Instant startedAt, Instant finishedAt,
                               RouteChoice decision, RouteMeasurement measurement) {
        this(schema, runId, scenario, pipeline, passed, preferredRouteId, routes, blockers, warnings, safeOverrides,
            artifacts, startedAt, finishedAt, decision, measurement, io.dpone.report.BuildInfo.commit());
    }
}
