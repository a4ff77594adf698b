package io.dpone.publication.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * {@code sink.options.physical_design.storage.clickhouse}: the engine and the {@code cluster} block. Present
 * (a cluster publication is requested) only when {@code cluster.name} is set; the schema has already checked
 * every shape, so this only reads.
 */
public record ClusterDesign(String engine, String cluster, String ddlScope, String replicationMode, Long rowBudget) {
    static final String PATH = "sink.options.physical_design.storage.clickhouse";

    /** The requested cluster design, or empty for a local publication. */
    public static Optional<ClusterDesign> of(JsonNode physicalDesign) {
        if (physicalDesign == null) {
            return Optional.empty();
        }
        JsonNode ch = physicalDesign.path("storage").path("clickhouse");
        JsonNode c = ch.path("cluster");
        if (!c.hasNonNull("name")) {
            return Optional.empty();
        }
        return Optional.of(new ClusterDesign(text(ch, "engine"), c.get("name").asText(), text(c, "ddl_scope"),
            text(c, "replication_mode"), c.hasNonNull("external_content_row_budget")
                ? c.get("external_content_row_budget").asLong() : null));
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }
}
