package io.dpone.clickhouse;

import java.util.List;

/**
 * The clusters {@code system.clusters} lists: whether one exists, and its replicas. One role of {@link
 * ClickHouseOperations} (issue 33: interfaces of at most five methods); a caller that needs only this role takes it.
 */
public interface ClusterCatalogue {

    /** Whether {@code system.clusters} lists {@code cluster}. */
    boolean clusterExists(String cluster);

    /** The replicas {@code system.clusters} lists for {@code cluster}, by shard then replica; empty for none. */
    List<ClusterReplica> clusterReplicas(String cluster);

    /** One row of {@code system.clusters}: a host, its native port, its shard and replica numbers. */
    record ClusterReplica(String hostName, int port, int shard, int replica, boolean internalReplication) {
    }
}
