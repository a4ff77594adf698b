package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.testing.TestEngines;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The operations contract on the embedded engine: {@link SqlOperations}' statements run by chDB. */
@io.dpone.testing.EngineTest
class EmbeddedClickHouseOperationsTest extends ClickHouseOperationsContract {
    private static ClickHouseEndpoint endpoint;

    @BeforeAll
    static void open() {
        endpoint = TestEngines.clickhouse();
    }

    @AfterAll
    static void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    @Override
    protected ClickHouseEndpoint endpoint() {
        return endpoint;
    }

    /** The test engine's configuration defines the publication cluster: one shard, two replicas. */
    @org.junit.jupiter.api.Test
    void aConfiguredClusterListsItsReplicas() {
        assertEquals(List.of(new ClickHouseOperations.ClusterReplica("127.0.0.1", 9000, 1, 1, false),
            new ClickHouseOperations.ClusterReplica("127.0.0.2", 9000, 1, 2, false)),
            ops.clusterReplicas(TestEngines.PUBLICATION_CLUSTER));
        assertTrue(ops.clusterExists(TestEngines.PUBLICATION_CLUSTER));
    }
}
