package io.dpone.certify;

import io.dpone.route.RunReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One route's entry in {@code load_steps.json}: every step the spec names, in the order a run goes through them,
 * each either measured (milliseconds) or marked: {@value #NOT_APPLICABLE} (the route has no such step, e.g.
 * {@code upload} on a streaming route), {@value #NOT_RUN} (the route has it, but this run did not reach it or had no
 * need of it: a blocked route, a red gate before {@code finalize}, a resume after publication, preflight_only) or
 * {@value #INLINE} ({@code lineage}: the four {@code __dpone__} lineage columns are projected by every load statement,
 * so their cost is inside {@code clickhouse_load}/{@code clickhouse_pull} and cannot be timed apart). Nothing the
 * spec names is ever absent.
 */
final class LoadSteps {
    static final String NOT_APPLICABLE = "not_applicable";
    static final String NOT_RUN = "not_run";
    static final String INLINE = "inline";
    /** The spec's microsteps, in run order. */
    static final List<String> STEPS = List.of("preflight", "prepare", "source_read", "parquet_write", "upload",
        "clickhouse_load", "clickhouse_pull", "dq", "lineage", "finalize", "cleanup");
    /** What each step times, written once into load_steps.json ({@code steps}). */
    static final Map<String, String> LEGEND = legend();

    private LoadSteps() {
    }

    private static Map<String, String> legend() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("preflight", "capability probes before any source IO (object-storage routes; every route in "
            + "preflight_only, where it is the whole probe time)");
        m.put("prepare", "connect, check databases, describe the source, create the staging table, start the reader");
        m.put("source_read", "the encoder thread reading rows, encoding them for the typed hash and counting the "
            + "gates' source side; on Parquet routes without the Parquet writer's time (overlaps loading)");
        m.put("parquet_write", "the Parquet writer: columnar encoding and compression of every chunk (Parquet routes; "
            + "overlaps loading)");
        m.put("upload", "putting chunks under the run's object prefix (object-storage routes)");
        m.put("clickhouse_load", "inserting each spooled chunk into the staging table (streaming and direct push routes)");
        m.put("clickhouse_pull", "ClickHouse reading staged chunks with s3()/s3Cluster() (object-storage routes)");
        m.put("dq", "the gates' target side per loaded chunk plus the gate evaluation");
        m.put("lineage", INLINE + ": the __dpone__ lineage columns are projected by each load statement; their cost "
            + "is inside clickhouse_load or clickhouse_pull");
        m.put("finalize", "recording the evidence and the atomic swap into the target");
        m.put("cleanup", "dropping the predecessor and deleting staged objects");
        m.put(NOT_APPLICABLE, "the route has no such step");
        m.put(NOT_RUN, "the route has the step but this run did not reach it (blocked, red, resumed, preflight_only)");
        return java.util.Collections.unmodifiableMap(m);
    }

    /** Whether route {@code routeId} has step {@code step} at all (in a run that reads source data). */
    static boolean applies(String routeId, String step) {
        boolean objectStorage = routeId.startsWith("object_storage_pull");
        boolean parquet = objectStorage || routeId.startsWith("direct_push_columnar");
        return switch (step) {
            case "preflight", "upload", "clickhouse_pull" -> objectStorage;
            case "parquet_write" -> parquet;
            case "clickhouse_load" -> !objectStorage;
            default -> true;
        };
    }

    /**
     * The route's entry: from its representative run's report, or, when it has none ({@code preflight_only}, or a
     * route whose probe blocked it before a run existed), from its decision alone: the probe time as
     * {@code preflight}, every other step not run.
     */
    static Map<String, Object> of(RouteDecision decision, RunReport report) {
        String route = decision.routeId();
        Map<String, Long> measured = report == null ? Map.of("preflight", decision.durationMs()) : report.stepMillis();
        Map<String, Object> steps = new LinkedHashMap<>();
        for (String step : STEPS) {
            if (measured.containsKey(step)) {
                steps.put(step, measured.get(step));
            } else if (!applies(route, step)) {
                steps.put(step, NOT_APPLICABLE);
            } else if (step.equals("lineage")) {
                boolean loaded = measured.containsKey("clickhouse_load") || measured.containsKey("clickhouse_pull");
                steps.put(step, loaded ? INLINE : NOT_RUN);
            } else {
                steps.put(step, NOT_RUN);
            }
        }
        measured.forEach((step, ms) -> steps.putIfAbsent(step, ms)); // a step a user's route adds is kept too
        steps.put("total_ms", report == null ? decision.durationMs() : report.durationMs());
        return steps;
    }
}
