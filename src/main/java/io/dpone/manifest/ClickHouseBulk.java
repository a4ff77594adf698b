package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code sink.options.clickhouse_bulk}: insert mode and the cluster pull policy. */
public record ClickHouseBulk(String mode, String useClusterFunction, String cluster) {
    public static final ClickHouseBulk DEFAULT = new ClickHouseBulk("client", "auto", null);

    public static ClickHouseBulk of(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return DEFAULT;
        }
        JsonNode pull = node.path("columnar_pull");
        return new ClickHouseBulk(node.path("mode").asText("client"), pull.path("use_cluster_function").asText("auto"),
            pull.hasNonNull("cluster") ? pull.get("cluster").asText() : null);
    }
}
