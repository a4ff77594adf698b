package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operations contract on {@link FakeClickHouseEndpoint}, the processor tests' ClickHouse: it must answer as the
 * embedded engine and the twin do, and it runs no SQL at all.
 */
class FakeClickHouseOperationsTest extends ClickHouseOperationsContract {
    private final FakeClickHouseEndpoint endpoint = new FakeClickHouseEndpoint();

    FakeClickHouseOperationsTest() {
        // the contract's clusters, each given last replica first: the fake lists them by shard, then replica
        CLUSTERS.forEach((name, replicas) -> {
            List<ClickHouseOperations.ClusterReplica> reversed = new ArrayList<>(replicas);
            Collections.reverse(reversed);
            endpoint.cluster(name, reversed.toArray(ClickHouseOperations.ClusterReplica[]::new));
        });
    }

    @Override
    protected ClickHouseEndpoint endpoint() {
        return endpoint;
    }

    @Override
    protected String readsNoObjectStorage() {
        return "the fake keeps no object store: a pull is recorded and lands a part of unknown rows unread, and a "
            + "count of staged objects has nothing to read";
    }

    @Test
    void theFakeRunsNoSql() {
        assertThrows(IllegalArgumentException.class, () -> endpoint.execute("SELECT 1"));
        assertThrows(IllegalArgumentException.class, () -> endpoint.query("SELECT 1"));
    }
}
