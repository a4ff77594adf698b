package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Binds a schema-valid manifest tree to records, applying documented defaults. */
final class ManifestBinder {
    private ManifestBinder() {
    }

    static BatchManifest bind(JsonNode root) {
        JsonNode src = root.path("source");
        JsonNode srcOptions = src.path("options");
        SourceSpec source = new SourceSpec(
            src.path("type").asText(),
            src.path("connection_ref").asText(),
            table(src.path("table")),
            strings(src.path("columns")),
            srcOptions.path("fetch_size").asInt(SourceSpec.DEFAULT_FETCH_SIZE),
            srcOptions.path("chunk_rows").asInt(SourceSpec.DEFAULT_CHUNK_ROWS),
            srcOptions.has("native_transfer") ? srcOptions.get("native_transfer") : null,
            srcOptions.path("parallel_readers").asInt(SourceSpec.DEFAULT_PARALLEL_READERS),
            srcOptions.path("parallel_min_rows").asLong(SourceSpec.DEFAULT_PARALLEL_MIN_ROWS),
            ValuePolicies.of(src.path("value_policy")));

        JsonNode snk = root.path("sink");
        TableRef target = table(snk.path("table"));
        JsonNode opts = snk.path("options");
        SinkOptions options = new SinkOptions(
            opts.path("lineage").asBoolean(false),
            opts.path("route").asText(SinkOptions.DEFAULT_ROUTE),
            strings(opts.path("order_by")),
            opts.hasNonNull("external_artifact_store_path") ? opts.get("external_artifact_store_path").asText() : null,
            opts.has("physical_design") ? opts.get("physical_design") : null,
            opts.has("clickhouse_bulk") ? opts.get("clickhouse_bulk") : null);
        JsonNode strategy = snk.path("strategy");
        SinkSpec sink = new SinkSpec(
            snk.path("type").asText(),
            snk.path("connection_ref").asText(),
            target,
            snk.path("staging").path("schema").asText(target.schema()),
            strategy.path("mode").asText(),
            strategy.hasNonNull("max_source_bytes") ? strategy.get("max_source_bytes").asLong() : null,
            options);

        JsonNode q = root.path("quality");
        QualitySpec quality = q.isMissingNode() ? QualitySpec.DEFAULT : new QualitySpec(
            strings(q.path("distinct_columns")),
            q.path("typed_hash").asText("full"),
            q.path("hash_sample_modulo").asInt(q.path("typed_hash").asText("full").equals("sampled") ? 16 : 0));

        String name = root.path("name").asText(target.schema() + "." + target.name());
        JsonNode c = root.path("cdc");
        CdcHandOverSpec cdc = c.isMissingNode() ? null : new CdcHandOverSpec(c.path("backend").asText(),
            c.path("pipeline_name").asText(), c.path("log_dataset").asText(), strings(c.path("unique_keys")),
            c.hasNonNull("capture_instance") ? c.get("capture_instance").asText() : null,
            c.path("offset_store").asText("clickhouse"),
            c.hasNonNull("checkpoint_json") ? c.get("checkpoint_json").asText() : null);
        return new BatchManifest(name, source, sink, quality, root.has("certification") ? root.get("certification") : null,
            cdc, RetryBlock.parse(root.get("retry")));
    }

    private static TableRef table(JsonNode node) {
        return new TableRef(node.path("schema").asText(), node.path("name").asText());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
