package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The authority record for one publication target. It names its owner operation, so a retried write whose
 * acknowledgement was lost recognises itself; everything a resume needs is in here or re-derivable from
 * members, never from process memory.
 *
 * @param artifactSha256  null before {@link Phase#SEALED}
 * @param ddlQueryId      the deterministic query id of the publication DDL, set at {@link Phase#DDL_RECORDED}
 * @param ddlRecordedAt   when the DDL was recorded (bounds the queue-retention check on resume)
 * @param inventoryDigest the admitted inventory digest (ordered member ids and the resolved endpoint set) the
 *                        operation was fenced with; a resume admitted with another digest is refused once a member
 *                        may have been touched. Null in records written before it was kept (see
 *                        {@code docs/publication.md})
 */
public record FenceRecord(String operationId, Phase phase, String generationId, String artifactSha256,
                          long artifactRows, Map<MemberId, MemberRecord> members, String ddlQueryId,
                          Instant ddlRecordedAt, String inventoryDigest) {
    public FenceRecord {
        members = java.util.Collections.unmodifiableMap(new TreeMap<>(members));
    }

    /** A record without an inventory digest (as written before the digest was kept). */
    public FenceRecord(String operationId, Phase phase, String generationId, String artifactSha256, long artifactRows,
                       Map<MemberId, MemberRecord> members, String ddlQueryId, Instant ddlRecordedAt) {
        this(operationId, phase, generationId, artifactSha256, artifactRows, members, ddlQueryId, ddlRecordedAt, null);
    }

    /** Per member: the target's UUID before publication (null when the target had to be created) and the
     * candidate's UUID once READY. */
    public record MemberRecord(UUID predecessorUuid, UUID candidateUuid) {
    }

    public static FenceRecord fenced(String operationId) {
        return fenced(operationId, null);
    }

    public static FenceRecord fenced(String operationId, String inventoryDigest) {
        return new FenceRecord(operationId, Phase.FENCED, null, null, 0, Map.of(), null, null, inventoryDigest);
    }

    public FenceRecord withPhase(Phase next) {
        return new FenceRecord(operationId, next, generationId, artifactSha256, artifactRows, members, ddlQueryId,
            ddlRecordedAt, inventoryDigest);
    }

    public FenceRecord withInventoryDigest(String digest) {
        return new FenceRecord(operationId, phase, generationId, artifactSha256, artifactRows, members, ddlQueryId,
            ddlRecordedAt, digest);
    }

    public FenceRecord sealed(String generation, String sha256, long rows) {
        return new FenceRecord(operationId, Phase.SEALED, generation, sha256, rows, members, ddlQueryId,
            ddlRecordedAt, inventoryDigest);
    }

    public FenceRecord ready(Map<MemberId, MemberRecord> memberRecords) {
        return new FenceRecord(operationId, Phase.READY, generationId, artifactSha256, artifactRows, memberRecords,
            ddlQueryId, ddlRecordedAt, inventoryDigest);
    }

    public FenceRecord ddlRecorded(String queryId, Instant at) {
        return new FenceRecord(operationId, Phase.DDL_RECORDED, generationId, artifactSha256, artifactRows,
            members, queryId, at, inventoryDigest);
    }
}
