package io.dpone.publication.artifact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.report.Json;
import java.util.ArrayList;
import java.util.List;

/** The sidecar seal of one artifact ({@code dpone.publication.artifact-seal.v1}): its facts as JSON. */
final class ArtifactSeal {
    static final String SCHEMA = "dpone.publication.artifact-seal.v1";

    private ArtifactSeal() {
    }

    static String write(SealedArtifact a) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("operation_id", a.operationId());
        root.put("sha256", a.sha256());
        root.put("schema_digest", a.schemaDigest());
        root.put("bytes", a.bytes());
        root.put("rows", a.rows());
        root.put("format", a.format());
        ArrayNode cols = root.putArray("columns");
        a.columns().forEach(c -> cols.addObject().put("name", c.name()).put("type", c.type()));
        try {
            return Json.MAPPER.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot encode an artifact seal", e);
        }
    }

    static SealedArtifact read(String json, String operationId) {
        try {
            JsonNode root = Json.MAPPER.readTree(json);
            if (!SCHEMA.equals(root.path("schema").asText()) || !operationId.equals(root.path("operation_id").asText())) {
                throw corrupt(operationId, "seal belongs to another schema or operation");
            }
            List<TableDefinition.Column> columns = new ArrayList<>();
            for (JsonNode c : root.withArray("columns")) {
                columns.add(new TableDefinition.Column(c.path("name").asText(), c.path("type").asText()));
            }
            SealedArtifact a = new SealedArtifact(operationId, text(root, "sha256"), text(root, "schema_digest"),
                root.path("bytes").asLong(-1), root.path("rows").asLong(-1), columns, text(root, "format"));
            if (!a.schemaDigest().equals(SealedArtifact.schemaDigest(columns)) || a.bytes() < 0 || a.rows() < 0) {
                throw corrupt(operationId, "seal is inconsistent");
            }
            return a;
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw corrupt(operationId, "seal is unreadable");
        }
    }

    private static String text(JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (n == null || !n.isTextual()) {
            throw new IllegalArgumentException("missing " + field);
        }
        return n.asText();
    }

    static DponeException corrupt(String operationId, String why) {
        return new DponeException(BlockerCode.PUBLICATION_ARTIFACT_CORRUPT, "operation " + operationId,
            "the sealed artifact of operation " + operationId + " no longer matches its seal: " + why);
    }
}
