package io.dpone.publication.runtime;

import io.dpone.publication.protocol.Receipt;
import java.util.List;

/**
 * The cluster publication block of a run report: the decision's mode, the deterministic operation id, the
 * authority phase reached and found, whether it committed and cleaned up, the opaque member ids and the
 * receipt (runtime evidence, {@code UNVERIFIED}).
 */
public record ClusterPublicationResult(String mode, String replicationMode, String cluster, String operationId,
                                       String inventoryDigest, List<String> members, String phase,
                                       String resumedFrom, boolean committed, boolean cleanupComplete,
                                       Receipt receipt) {
    public ClusterPublicationResult {
        members = members == null ? List.of() : List.copyOf(members);
    }
}
