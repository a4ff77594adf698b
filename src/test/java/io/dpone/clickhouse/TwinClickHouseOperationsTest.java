package io.dpone.clickhouse;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Secret;
import io.dpone.testing.twin.TwinProcess;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The operations contract on a server endpoint: {@link SqlOperations}' statements sent by client-v2 with the
 * production settings to the ClickHouse HTTP twin (its own process over its own embedded engine).
 */
@io.dpone.testing.ProcessTest
class TwinClickHouseOperationsTest extends ClickHouseOperationsContract {
    private static ServerClickHouseEndpoint endpoint;

    @BeforeAll
    static void start() {
        TwinProcess twin = TwinProcess.shared();
        endpoint = ServerClickHouseEndpoint.open(new ConnectionSpec("clickhouse_twin", ConnectionType.CLICKHOUSE,
            twin.url(), TwinProcess.USER, Secret.of(twin.password()), false, Map.of()));
    }

    @AfterAll
    static void stop() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    @Override
    protected ClickHouseEndpoint endpoint() {
        return endpoint;
    }
}
