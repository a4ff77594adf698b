package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * {@code source.options.native_transfer.snapshot.columnar_fast_path}: where Parquet chunks are staged and how
 * the runtime and ClickHouse reach them. The two credential paths stay separate: {@code runtimeConnectionId} (an
 * s3 alias the runtime writes, lists and deletes with) and {@code namedCollection} (what ClickHouse reads with).
 */
public record ColumnarFastPath(String mode, String provider, Integer chunkRows, String uriPrefix,
                               String runtimeConnectionId, String readMode, String namedCollection,
                               boolean requireRuntimeWrite, boolean requireClickhouseRead) {

    /** Reads the block from a manifest's {@code native_transfer} node, if present. */
    public static Optional<ColumnarFastPath> of(JsonNode nativeTransfer) {
        if (nativeTransfer == null) {
            return Optional.empty();
        }
        JsonNode c = nativeTransfer.path("snapshot").path("columnar_fast_path");
        if (c.isMissingNode()) {
            return Optional.empty();
        }
        JsonNode os = c.path("object_storage");
        JsonNode pre = os.path("preflight");
        return Optional.of(new ColumnarFastPath(
            c.path("mode").asText("auto"),
            c.path("provider").asText("auto"),
            c.hasNonNull("chunk_rows") ? c.get("chunk_rows").asInt() : null,
            os.hasNonNull("uri_prefix") ? os.get("uri_prefix").asText() : null,
            os.path("runtime_access").hasNonNull("connection_id")
                ? os.path("runtime_access").get("connection_id").asText() : null,
            os.path("clickhouse_read_access").path("mode").asText("named_collection"),
            os.path("clickhouse_read_access").hasNonNull("named_collection")
                ? os.path("clickhouse_read_access").get("named_collection").asText() : null,
            pre.path("require_runtime_write").asBoolean(true),
            pre.path("require_clickhouse_read").asBoolean(true)));
    }
}
