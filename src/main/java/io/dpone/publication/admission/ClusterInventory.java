package io.dpone.publication.admission;

import io.dpone.publication.MemberId;
import java.util.List;

/**
 * The admitted member inventory: members ordered by (shard, replica) with their opaque ids, the cluster's one
 * {@code internal_replication} value, and a digest binding the ordered member ids to the resolved endpoint set.
 */
public record ClusterInventory(String cluster, List<MemberId> members, boolean internalReplication,
                               String digest) {
    public ClusterInventory {
        members = List.copyOf(members);
    }
}
