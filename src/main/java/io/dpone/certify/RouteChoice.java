package io.dpone.certify;

import java.util.Comparator;
import java.util.List;

/**
 * How {@code preferred_route_id} was chosen ({@code decision} in certification.json). The candidates are the green
 * routes; the fastest is the one with the highest median rows/s. When another green route's [min, max] rows/s
 * range overlaps the fastest's, the measurements cannot tell them apart: {@code within_noise} is true, and the
 * preferred route is the first of the overlapping routes in the {@link #TIE_BREAK_ORDER} (fewer moving parts
 * first; docs/certification.md says why). Otherwise the fastest route is preferred.
 *
 * @param basis              what was compared: {@value #BASIS}
 * @param preferredRouteId   the chosen route, null when no route is green
 * @param fastestRouteId     the green route with the highest median rows/s
 * @param runnerUpRouteId    the green route with the next highest median, null when there is none
 * @param withinNoise        whether another green route's range overlaps the fastest's
 * @param overlapping        the fastest route and every green route whose range overlaps it (highest median first)
 * @param tieBreak           {@value #TIE_BREAK} when it decided, {@code none} when the fastest won clearly
 * @param order              the tie-break order
 */
public record RouteChoice(String basis, String preferredRouteId, String fastestRouteId, String runnerUpRouteId,
                          boolean withinNoise, List<String> overlapping, String tieBreak, List<String> order) {
    public static final String BASIS = "median_rows_per_second";
    public static final String TIE_BREAK = "fewer_moving_parts";
    /** Fewer moving parts first: no columnar encoder, then no object storage, then no glob listing, then no cluster. */
    public static final List<String> TIE_BREAK_ORDER = List.of("typed_binary_streaming", "typed_raw_streaming",
        "direct_push_columnar.chunked", "object_storage_pull.file", "object_storage_pull.chunked",
        "object_storage_pull_s3", "object_storage_pull_s3cluster");

    public RouteChoice {
        overlapping = List.copyOf(overlapping);
        order = List.copyOf(order);
    }

    /** Chooses among {@code routes} (all of the scenario's decisions; only the selectable ones compete). */
    static RouteChoice decide(List<RouteDecision> routes) {
        List<RouteDecision> green = routes.stream().filter(RouteDecision::selectable)
            .sorted(Comparator.comparingLong((RouteDecision d) -> d.rowsPerSecondStats().median()).reversed()
                .thenComparingInt(d -> rank(d.routeId())))
            .toList();
        if (green.isEmpty()) {
            return new RouteChoice(BASIS, null, null, null, false, List.of(), "none", TIE_BREAK_ORDER);
        }
        RouteDecision fastest = green.get(0);
        List<RouteDecision> overlapping = green.stream()
            .filter(d -> d.rowsPerSecondStats().overlaps(fastest.rowsPerSecondStats())).toList();
        boolean withinNoise = overlapping.size() > 1;
        String preferred = withinNoise
            ? overlapping.stream().min(Comparator.comparingInt(d -> rank(d.routeId()))).orElseThrow().routeId()
            : fastest.routeId();
        return new RouteChoice(BASIS, preferred, fastest.routeId(), green.size() > 1 ? green.get(1).routeId() : null,
            withinNoise, overlapping.stream().map(RouteDecision::routeId).toList(), withinNoise ? TIE_BREAK : "none",
            TIE_BREAK_ORDER);
    }

    /** A route's place in the tie-break order; a route the order does not name comes after all it names. */
    static int rank(String routeId) {
        int i = TIE_BREAK_ORDER.indexOf(routeId);
        return i < 0 ? TIE_BREAK_ORDER.size() : i;
    }
}
