package io.dpone.clickhouse;

import io.dpone.testing.TestEngines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The operations contract on the embedded engine: {@link SqlOperations}' statements run by chDB, whose configuration
 * ({@code TestEngines}) defines the contract's clusters.
 */
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

    @Override
    protected ObjectStorage objectStorage() {
        return LoopbackS3.start();
    }
}
