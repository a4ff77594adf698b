package io.dpone.publication.keeper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.FenceRecord;
import io.dpone.publication.protocol.Phase;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The JSON form of a {@link FenceRecord} as the authority stores it ({@code dpone.publication.fence-record.v1}):
 * snake_case keys, members keyed by their opaque id, UUIDs as text, {@code ddl_recorded_at} as ISO-8601 UTC,
 * {@code inventory_digest} the admitted inventory digest the operation was fenced with. A record written before
 * that key existed decodes with a null digest (the schema stays v1: the key is additive, and an older reader
 * ignores it). Encoding is canonical (fixed key order, members sorted), so equal records encode to equal text.
 */
public final class FenceRecordJson {
    public static final String SCHEMA = "dpone.publication.fence-record.v1";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private FenceRecordJson() {
    }

    public static String encode(FenceRecord r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("operation_id", r.operationId());
        root.put("phase", r.phase().name());
        root.put("generation_id", r.generationId());
        root.put("artifact_sha256", r.artifactSha256());
        root.put("artifact_rows", r.artifactRows());
        ObjectNode members = root.putObject("members");
        new TreeMap<>(r.members()).forEach((id, m) -> members.putObject(id.value())
            .put("predecessor_uuid", m.predecessorUuid() == null ? null : m.predecessorUuid().toString())
            .put("candidate_uuid", m.candidateUuid() == null ? null : m.candidateUuid().toString()));
        root.put("ddl_query_id", r.ddlQueryId());
        root.put("ddl_recorded_at", r.ddlRecordedAt() == null ? null : r.ddlRecordedAt().toString());
        root.put("inventory_digest", r.inventoryDigest());
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a fence record", e);
        }
    }

    /** Decodes a stored record; {@code publication.authority_record_invalid} when it is not one. */
    public static FenceRecord decode(String json, String targetKey) {
        try {
            JsonNode root = MAPPER.readTree(json);
            if (root == null || !SCHEMA.equals(root.path("schema").asText())) {
                throw new IllegalArgumentException("not a fence record");
            }
            Map<MemberId, FenceRecord.MemberRecord> members = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = root.path("members").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                members.put(new MemberId(e.getKey()), new FenceRecord.MemberRecord(
                    uuid(e.getValue().get("predecessor_uuid")), uuid(e.getValue().get("candidate_uuid"))));
            }
            JsonNode at = root.get("ddl_recorded_at");
            String operation = text(root.get("operation_id"));
            if (operation == null) {
                throw new IllegalArgumentException("no operation id");
            }
            return new FenceRecord(operation, Phase.valueOf(root.path("phase").asText()),
                text(root.get("generation_id")), text(root.get("artifact_sha256")),
                root.path("artifact_rows").asLong(), members, text(root.get("ddl_query_id")),
                at == null || at.isNull() ? null : Instant.parse(at.asText()), text(root.get("inventory_digest")));
        } catch (JsonProcessingException | RuntimeException e) {
            throw new DponeException(BlockerCode.PUBLICATION_AUTHORITY_RECORD_INVALID, "authority " + targetKey,
                "the authority record of target " + targetKey + " cannot be decoded");
        }
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    private static UUID uuid(JsonNode n) {
        return n == null || n.isNull() ? null : UUID.fromString(n.asText());
    }
}
