package io.dpone.clickhouse;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Secret;
import io.dpone.testing.ItServers;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract on a real ClickHouse server over HTTP ({@link ItServers#clickhouse()}: one named by
 * {@code DPONE_IT_CLICKHOUSE_URL}, or a container). Skipped when there is neither.
 */
class ServerClickHouseEndpointIT extends ServerClickHouseEndpointContract {
    private static ServerClickHouseEndpoint endpoint;

    @BeforeAll
    static void open() {
        ItServers.Server server = ItServers.clickhouse();
        endpoint = ServerClickHouseEndpoint.open(new ConnectionSpec("clickhouse_it", ConnectionType.CLICKHOUSE,
            server.url(), server.user(), Secret.of(server.password()), false, Map.of()));
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
    protected ConnectionSpec spec(String password, Map<String, String> options) {
        ItServers.Server server = ItServers.clickhouse();
        return new ConnectionSpec("clickhouse_it", ConnectionType.CLICKHOUSE, server.url(), server.user(),
            Secret.of(password), false, options);
    }

    @Override
    protected String password() {
        return ItServers.clickhouse().password();
    }
}
