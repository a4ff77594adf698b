package io.dpone.certify;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import java.util.ArrayList;
import java.util.List;

/**
 * A certification scenario: which routes run, how much source they read and how many times each route is
 * measured. {@code preflight_only} probes every route once without reading source data; {@code small_live} runs
 * every route on the first {@value #SMALL_LIVE_ROWS} rows in key order; any other name must be declared under
 * {@code certification.scenarios} in the manifest (the spec's {@code do_14789_kam_mes_sales_benchmark} shape: the
 * full route matrix, no row limit by default). A declared scenario with a built-in name keeps the built-in's
 * defaults for what it does not set (e.g. {@code small_live: {repetitions: 1}}). Routes that read source are
 * measured {@code repetitions} times (default {@value #DEFAULT_REPETITIONS}).
 */
public record Scenario(String name, List<String> routes, long rowLimit, boolean readsSource, int repetitions) {
    public static final List<String> DEFAULT_ROUTES = List.of("typed_raw_streaming", "typed_binary_streaming",
        "direct_push_columnar.chunked", "object_storage_pull.chunked", "object_storage_pull.file",
        "object_storage_pull_s3", "object_storage_pull_s3cluster");
    public static final long SMALL_LIVE_ROWS = 100_000;
    public static final int DEFAULT_REPETITIONS = 3;

    public Scenario {
        routes = List.copyOf(routes);
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be at least 1");
        }
    }

    /** A scenario measured {@value #DEFAULT_REPETITIONS} times. */
    public Scenario(String name, List<String> routes, long rowLimit, boolean readsSource) {
        this(name, routes, rowLimit, readsSource, DEFAULT_REPETITIONS);
    }

    public static Scenario resolve(BatchManifest manifest, String name) {
        JsonNode declared = manifest.certification() == null ? null
            : manifest.certification().path("scenarios").get(name);
        Scenario base = switch (name) {
            case "preflight_only" -> new Scenario(name, DEFAULT_ROUTES, 0, false, 1);
            case "small_live" -> new Scenario(name, DEFAULT_ROUTES, SMALL_LIVE_ROWS, true);
            default -> null;
        };
        if (declared != null) {
            List<String> routes = new ArrayList<>();
            declared.path("routes").forEach(r -> routes.add(r.asText()));
            return new Scenario(name, !routes.isEmpty() ? routes : base != null ? base.routes() : DEFAULT_ROUTES,
                declared.path("row_limit").asLong(base != null ? base.rowLimit() : 0),
                base == null || base.readsSource(),
                base != null && !base.readsSource() ? 1 : declared.path("repetitions").asInt(DEFAULT_REPETITIONS));
        }
        if (base == null) {
            throw new DponeException(BlockerCode.CERTIFY_SCENARIO_UNKNOWN, "--scenario",
                "scenario '" + name + "' is neither built in (preflight_only, small_live) nor declared under "
                    + "certification.scenarios in the manifest");
        }
        return base;
    }
}
