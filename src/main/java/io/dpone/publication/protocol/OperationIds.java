package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import io.dpone.publication.MemberId.Digests;
import java.util.List;

/**
 * Deterministic identities. The same run id and plan always give the same operation id; the logical generation
 * binds the artifact and schema digests to the ordered opaque member map; query ids and dedup tokens derive from
 * both, so every retry of a step is recognisable as the same step.
 */
public final class OperationIds {
    private OperationIds() {
    }

    /** {@code op-<24 hex>} from the scheduler run id and the plan digest. */
    public static String operation(String runId, String planDigest) {
        return "op-" + Digests.sha256Hex("operation\n" + runId + "\n" + planDigest).substring(0, 24);
    }

    /** {@code g-<24 hex>} from the artifact and schema digests and the ordered member ids. */
    public static String generation(String artifactSha256, String schemaDigest, List<MemberId> orderedMembers) {
        StringBuilder sb = new StringBuilder("generation\n").append(artifactSha256).append('\n').append(schemaDigest);
        orderedMembers.forEach(m -> sb.append('\n').append(m.value()));
        return "g-" + Digests.sha256Hex(sb.toString()).substring(0, 24);
    }

    /** The publication DDL's query id. */
    public static String ddlQuery(String operationId, String generationId, String step) {
        return "dpone-" + operationId + "-" + generationId + "-" + step;
    }

    /** The insert deduplication token of one member's load of one generation. */
    public static String loadToken(String generationId, MemberId member) {
        return "dpone-" + generationId + "-" + member.value();
    }
}
