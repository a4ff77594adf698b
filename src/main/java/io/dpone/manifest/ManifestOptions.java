package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Schema-valid option values that this runtime refuses rather than accept and ignore, checked on the manifest's tree
 * next to the schema (so {@code dpone check} reports them with every other problem): each blocker's subject is the
 * manifest path of the key. What each key does is in docs/manifest.md ("What every key does").
 *
 * <ul>
 *   <li>{@code ...object_storage.runtime_access.connection_type: airflow}: dpone resolves
 *       {@code runtime_access.connection_id} in its runtime connection context and reads no Airflow connection
 *       ({@code manifest.option_unsupported}); {@code context} is what it does.</li>
 *   <li>{@code ...columnar_fast_path.mode}: {@code required} admits only the Parquet routes, {@code disabled} none of
 *       them; {@code sink.options.route} (default {@value SinkOptions#DEFAULT_ROUTE}) outside what the mode admits is
 *       {@code manifest.route_excluded}, and certification blocks the excluded routes with the same code.</li>
 * </ul>
 * {@code sink.options.clickhouse_bulk.mode} depends on the sink connection, so it is checked where the connection
 * context is known ({@code io.dpone.route.BulkMode}).
 */
public final class ManifestOptions {
    public static final String COLUMNAR = "source.options.native_transfer.snapshot.columnar_fast_path";
    public static final String COLUMNAR_MODE = COLUMNAR + ".mode";
    public static final String CONNECTION_TYPE = COLUMNAR + ".object_storage.runtime_access.connection_type";

    private ManifestOptions() {
    }

    /** Every refused option value in {@code root} (a manifest tree that may also have failed the schema). */
    static List<Blocker> check(JsonNode root) {
        List<Blocker> out = new ArrayList<>();
        JsonNode columnar = root.path("source").path("options").path("native_transfer").path("snapshot")
            .path("columnar_fast_path");
        if ("airflow".equals(columnar.path("object_storage").path("runtime_access").path("connection_type")
                .asText(null))) {
            out.add(Blocker.of(BlockerCode.MANIFEST_OPTION_UNSUPPORTED, CONNECTION_TYPE, "dpone resolves "
                + "runtime_access.connection_id in its runtime connection context and reads no Airflow connection: "
                + "define the alias in the context and set connection_type: context (or leave it out)"));
        }
        String route = root.path("sink").path("options").path("route").asText(SinkOptions.DEFAULT_ROUTE);
        excluded(columnar.path("mode").asText("auto"), route).ifPresent(out::add);
        retryBlocker(root.get("retry"), "retry").ifPresent(out::add);
        return out;
    }

    /**
     * A schema-valid {@code retry:} block ({@code at} its path) whose backoff cannot work: {@code initial_backoff}
     * of zero or above {@code max_backoff} (with the defaults for what it leaves out).
     */
    public static Optional<Blocker> retryBlocker(JsonNode retry, String at) {
        try {
            RetryBlock.parse(retry);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(Blocker.of(BlockerCode.MANIFEST_INVALID_VALUE, at, "retry needs 0 < initial_backoff "
                + "<= max_backoff (defaults 250ms and 15s)"));
        }
    }

    /** Whether a route writes Parquet chunks (the columnar fast path): direct push and the object-storage routes. */
    public static boolean columnar(String routeId) {
        return routeId.startsWith("direct_push_columnar") || routeId.startsWith("object_storage_pull");
    }

    /** The blocker when {@code manifest}'s {@code columnar_fast_path.mode} does not admit {@code routeId}. */
    public static Optional<Blocker> excluded(BatchManifest manifest, String routeId) {
        return excluded(ColumnarFastPath.of(manifest.source().nativeTransfer()).map(ColumnarFastPath::mode)
            .orElse("auto"), routeId);
    }

    private static Optional<Blocker> excluded(String mode, String routeId) {
        if ("required".equals(mode) && !columnar(routeId)) {
            return Optional.of(Blocker.of(BlockerCode.MANIFEST_ROUTE_EXCLUDED, COLUMNAR_MODE, "columnar_fast_path.mode "
                + "is required: only the Parquet routes (direct_push_columnar.*, object_storage_pull*) may load this "
                + "table, not " + routeId));
        }
        if ("disabled".equals(mode) && columnar(routeId)) {
            return Optional.of(Blocker.of(BlockerCode.MANIFEST_ROUTE_EXCLUDED, COLUMNAR_MODE, "columnar_fast_path.mode "
                + "is disabled: the Parquet route " + routeId + " may not load this table; use a streaming route"));
        }
        return Optional.empty();
    }
}
