package io.dpone.publication.protocol;

import java.time.Instant;
import java.util.List;

/**
 * The durable COMMITTED receipt. An ordinary run's receipt is runtime evidence ({@code evidence_scope: runtime},
 * {@code evidence_status: UNVERIFIED}); only live certification may write PASS evidence. Members appear by
 * opaque id only.
 */
public record Receipt(String schema, String evidenceScope, String evidenceStatus, String status, String runId,
                      String operationId, String generationId, String mode, String replicationMode,
                      String cluster, String target, String inventoryDigest, Artifact artifact,
                      List<Member> members, String ddlQueryId, Instant committedAt) {
    public Receipt {
        members = List.copyOf(members);
    }

    /** The sealed artifact's facts. */
    public record Artifact(String sha256, String schemaDigest, long bytes, long rows) {
    }

    /** One member's published state. */
    public record Member(String memberId, String targetUuid, String generationId, long rows) {
    }
}
