package io.dpone.publication.admission;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.List;

/**
 * The publication cluster as one member's {@code system.clusters} advertises it: one {@link AdvertisedMember} per
 * row, ordered by (shard, replica), with the native {@code host_name}/{@code port} (used only to resolve a
 * connection and to derive the opaque id) and {@code internal_replication} (a column since ClickHouse 23.10).
 * A cluster without rows is {@code publication.inventory_incomplete}; judging the inventory (one shard, at least
 * two members, one consistent flag matching the mode, the same view on every member) is the admission's job.
 */
public final class SystemClustersInventoryReader {
    private final ClickHouseEndpoint endpoint;

    public SystemClustersInventoryReader(ClickHouseEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** The cluster as this endpoint advertises it; {@code publication.inventory_incomplete} when it has no rows. */
    public List<AdvertisedMember> read(String cluster) {
        List<AdvertisedMember> members = view(cluster);
        if (members.isEmpty()) {
            throw new DponeException(BlockerCode.PUBLICATION_INVENTORY_INCOMPLETE,
                "sink.options.physical_design.storage.clickhouse.cluster.name",
                "system.clusters holds no members for the publication cluster");
        }
        return members;
    }

    /** The cluster as this endpoint advertises it, possibly empty (a member compares it with the entry's view). */
    public List<AdvertisedMember> view(String cluster) {
        return endpoint.operations().clusterReplicas(cluster).stream().map(r -> new AdvertisedMember(cluster,
            r.hostName(), r.port(), r.shard(), r.replica(), r.internalReplication())).toList();
    }

    /** Rows of host_name, port, shard_num, replica_num, internal_replication (all as text). */
    public static List<AdvertisedMember> fromRows(String cluster, List<List<String>> rows) {
        return rows.stream().map(r -> new AdvertisedMember(cluster, r.get(0), Integer.parseInt(r.get(1)),
            Integer.parseInt(r.get(2)), Integer.parseInt(r.get(3)), flag(r.get(4)))).toList();
    }

    private static boolean flag(String value) {
        return "1".equals(value) || "true".equalsIgnoreCase(value);
    }
}
