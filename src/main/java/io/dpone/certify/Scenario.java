package io.dpone.certify;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import java.util.ArrayList;
import java.util.List;

/**
 * A certification scenario: which routes run and how much source they read. {@code preflight_only} probes every
 * route without reading source data; {@code small_live} runs every route on the first {@value #SMALL_LIVE_ROWS}
 * rows in key order; any other name must be declared under {@code certification.scenarios} in the manifest
 * (the spec's {@code do_14789_kam_mes_sales_benchmark} shape: the full route matrix, no row limit by default).
 */
public record Scenario(String name, List<String> routes, long rowLimit, boolean readsSource) {
    public static final List<String> DEFAULT_ROUTES = List.of("typed_raw_streaming", "typed_binary_streaming",
        "direct_push_columnar.chunked", "object_storage_pull.chunked", "object_storage_pull.file",
        "object_storage_pull_s3", "object_storage_pull_s3cluster");
    public static final long SMALL_LIVE_ROWS = 100_000;

    public static Scenario resolve(BatchManifest manifest, String name) {
        JsonNode declared = manifest.certification() == null ? null
            : manifest.certification().path("scenarios").get(name);
        if (declared != null) {
            List<String> routes = new ArrayList<>();
            declared.path("routes").forEach(r -> routes.add(r.asText()));
            return new Scenario(name, routes.isEmpty() ? DEFAULT_ROUTES : routes,
                declared.path("row_limit").asLong(0), true);
        }
        return switch (name) {
            case "preflight_only" -> new Scenario(name, DEFAULT_ROUTES, 0, false);
            case "small_live" -> new Scenario(name, DEFAULT_ROUTES, SMALL_LIVE_ROWS, true);
            default -> throw new DponeException(BlockerCode.CERTIFY_SCENARIO_UNKNOWN, "--scenario",
                "scenario '" + name + "' is neither built in (preflight_only, small_live) nor declared under "
                    + "certification.scenarios in the manifest");
        };
    }
}
