package io.dpone.route;

/**
 * One capability probe of one route: schema {@value #SCHEMA}, a line of {@code route_decisions.jsonl} and an entry of
 * a run report's {@code probes}.
 *
 * @param probe      the probe's name ({@code parquet_writer}, {@code runtime_write}, {@code named_collection},
 *                   {@code cluster}, {@code clickhouse_read}; under preflight_only also {@code clickhouse_query} and
 *                   {@code source_metadata})
 * @param code       the blocker code this probe raises when it fails
 * @param status     {@code passed}, {@code failed} or {@code skipped} (the message says why)
 * @param durationMs the probe's own time
 * @param message    what was found, redacted like every report text; null when the probe simply passed
 */
public record ProbeResult(String schema, String routeId, String probe, String code, String status, long durationMs,
                          String message) {
    public static final String SCHEMA = "dpone.route_probe.v1";

    public static ProbeResult passed(String routeId, String probe, String code, long startedNanos, String message) {
        return new ProbeResult(SCHEMA, routeId, probe, code, "passed", millisSince(startedNanos), message);
    }

    public static ProbeResult failed(String routeId, String probe, String code, long startedNanos, String message) {
        return new ProbeResult(SCHEMA, routeId, probe, code, "failed", millisSince(startedNanos), message);
    }

    public static ProbeResult skipped(String routeId, String probe, String code, String why) {
        return new ProbeResult(SCHEMA, routeId, probe, code, "skipped", 0, why);
    }

    private static long millisSince(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }
}
