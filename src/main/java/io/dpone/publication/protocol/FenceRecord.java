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
 * @param artifactSha256 null before {@link Phase#SEALED}
 * @param ddlQueryId     the deterministic query id of the publication DDL, set at {@link Phase#DDL_RECORDED}
 * @param ddlRecordedAt  when the DDL was recorded (bounds the queue-retention check on resume)
 */
public record FenceRecord(String operationId, Phase phase, String generationId, String artifactSha256,
                          long artifactRows, Map<MemberId, MemberRecord> members, String ddlQueryId,
                          Instant ddlRecordedAt) {
    public FenceRecord {
        members = java.util.Collections.unmodifiableMap(new TreeMap<>(members));
    }

    /** Per member: the target's UUID before publication (null when the target had to be created) and the
     * candidate's UUID once READY. */
    public record MemberRecord(UUID predecessorUuid, UUID candidateUuid) {
    }

    public static FenceRecord fenced(String operationId) {
        return new FenceRecord(operationId, Phase.FENCED, null, null, 0, Map.of(), null, null);
    }

    public FenceRecord withPhase(Phase next) {
        return new FenceRecord(operationId, next, generationId, artifactSha256, artifactRows, members, ddlQueryId,
            ddlRecordedAt);
    }

    public FenceRecord sealed(String generation, String sha256, long rows) {
        return new FenceRecord(operationId, Phase.SEALED, generation, sha256, rows, members, ddlQueryId,
            ddlRecordedAt);
    }

    public FenceRecord ready(Map<MemberId, MemberRecord> memberRecords) {
        return new FenceRecord(operationId, Phase.READY, generationId, artifactSha256, artifactRows, memberRecords,
            ddlQueryId, ddlRecordedAt);
    }

    public FenceRecord ddlRecorded(String queryId, Instant at) {
        return new FenceRecord(operationId, Phase.DDL_RECORDED, generationId, artifactSha256, artifactRows,
            members, queryId, at);
    }
}
