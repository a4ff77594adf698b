package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Secret;
import io.dpone.testing.twin.TwinProcess;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The endpoint contracts through {@link ServerClickHouseEndpoint} and client-v2 as in production, against the
 * ClickHouse HTTP twin (a separate process over its own embedded engine). A twin run, not a server run: the same
 * contracts run against a real server as {@code ServerClickHouseEndpointIT}.
 */
@io.dpone.testing.ProcessTest
class ServerClickHouseEndpointTwinTest extends ServerClickHouseEndpointContract {
    private static ServerClickHouseEndpoint endpoint;

    @BeforeAll
    static void start() {
        endpoint = ServerClickHouseEndpoint.open(spec(TwinProcess.shared(), TwinProcess.shared().password(),
            Map.of()));
    }

    @AfterAll
    static void stop() {
        if (endpoint != null) {
            endpoint.close();
        }
    }

    private static ConnectionSpec spec(TwinProcess twin, String password, Map<String, String> options) {
        return new ConnectionSpec("clickhouse_twin", ConnectionType.CLICKHOUSE, twin.url(), TwinProcess.USER,
            Secret.of(password), false, options);
    }

    @Override
    protected ClickHouseEndpoint endpoint() {
        return endpoint;
    }

    @Override
    protected ConnectionSpec spec(String password, Map<String, String> options) {
        return spec(TwinProcess.shared(), password, options);
    }

    @Override
    protected String password() {
        return TwinProcess.shared().password();
    }

    @Test
    void aWrongPasswordIsTheServersAuthenticationFailure() {
        try (ServerClickHouseEndpoint bad = ServerClickHouseEndpoint.open(spec("wrong", Map.of()))) {
            ClickHouseQueryException e = assertThrows(ClickHouseQueryException.class, () -> bad.query("SELECT 1"));
            assertTrue(e.getMessage().contains("516") || e.getMessage().contains("AUTHENTICATION_FAILED"),
                e.getMessage());
        }
    }
}
