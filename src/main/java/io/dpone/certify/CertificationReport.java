package io.dpone.certify;

import io.dpone.error.Blocker;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** {@code certification.json}: schema {@value #SCHEMA}. */
public record CertificationReport(String schema, String runId, String scenario, String pipeline, boolean passed,
                                  String preferredRouteId, List<RouteDecision> routes, List<Blocker> blockers,
                                  List<String> warnings, Map<String, Object> safeOverrides,
                                  Map<String, String> artifacts, Instant startedAt, Instant finishedAt) {
    public static final String SCHEMA = "dpone.route_capability_certification.v1";

    public CertificationReport {
        routes = List.copyOf(routes);
        blockers = List.copyOf(blockers);
        warnings = List.copyOf(warnings);
    }
}
