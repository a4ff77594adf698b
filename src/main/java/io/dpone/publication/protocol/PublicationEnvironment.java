package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import io.dpone.publication.admission.ClusterInventory;
import io.dpone.publication.artifact.ArtifactExtraction;
import io.dpone.publication.artifact.ArtifactStore;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything one publication run works with, all behind small interfaces: the admitted inventory and a direct
 * connection per member, the cluster's DDL channel, the authority, the artifact and receipt stores, the source
 * extraction and state, and the clock.
 */
public record PublicationEnvironment(String runId, String operationId, PublicationTarget target,
                                     ClusterInventory inventory, Map<MemberId, ClusterMember> members,
                                     ClusterDdl ddl, PublicationAuthority authority, ArtifactStore artifacts,
                                     ArtifactExtraction extraction, ReceiptStore receipts, SourceState sourceState,
                                     PublicationClock clock, PublicationSettings settings) {
    public PublicationEnvironment {
        Map<MemberId, ClusterMember> ordered = new LinkedHashMap<>();
        for (MemberId id : inventory.members()) {
            ClusterMember m = members.get(id);
            if (m == null) {
                throw new IllegalArgumentException("no connection for admitted member " + id);
            }
            ordered.put(id, m);
        }
        members = java.util.Collections.unmodifiableMap(ordered);
    }

    public ClusterMember member(MemberId id) {
        return members.get(id);
    }
}
