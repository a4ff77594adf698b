package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * {@code sink.options}. {@code route} selects the transfer route (default {@code typed_binary_streaming});
 * {@code physicalDesign} and {@code clickhouseBulk} are the schema-validated blocks used by cluster publication
 * and the columnar routes.
 */
public record SinkOptions(boolean lineage, String route, List<String> orderBy, String externalArtifactStorePath,
                          JsonNode physicalDesign, JsonNode clickhouseBulk) {
    public static final String DEFAULT_ROUTE = "typed_binary_streaming";

    public SinkOptions {
        orderBy = List.copyOf(orderBy);
        physicalDesign = physicalDesign == null ? null : physicalDesign.deepCopy();
        clickhouseBulk = clickhouseBulk == null ? null : clickhouseBulk.deepCopy();
    }
}
