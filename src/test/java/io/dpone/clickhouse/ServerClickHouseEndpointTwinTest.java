package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Secret;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The endpoint contract through {@link ServerClickHouseEndpoint} and client-v2 as in production, against the
 * ClickHouse HTTP twin (a separate process over its own embedded engine). A twin run, not a server run: the same
 * class runs against a real server as {@code ServerClickHouseEndpointIT}.
 */
class ServerClickHouseEndpointTwinTest extends ClickHouseEndpointContract {
    private static TwinProcess twin;
    private static ServerClickHouseEndpoint endpoint;

    static ConnectionSpec spec(String url, String password) {
        return new ConnectionSpec("clickhouse_twin", ConnectionType.CLICKHOUSE, url, TwinProcess.USER,
            Secret.of(password), false, Map.of());
    }

    @BeforeAll
    static void start() throws Exception {
        twin = TwinProcess.start(Files.createTempDirectory("dpone-twin-"));
        endpoint = ServerClickHouseEndpoint.open(spec(twin.url(), twin.password()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (endpoint != null) {
            endpoint.close();
        }
        if (twin != null) {
            twin.close();
        }
    }

    @Override
    protected ClickHouseEndpoint endpoint() {
        return endpoint;
    }

    @Test
    void kindIsServer() {
        assertEquals("server", endpoint.kind());
    }

    @Test
    void wrongPasswordIsAServerErrorThatNamesNoSecret() {
        String wrong = "not-the-password-" + System.nanoTime();
        try (ServerClickHouseEndpoint bad = ServerClickHouseEndpoint.open(spec(twin.url(), wrong))) {
            ClickHouseQueryException e = assertThrows(ClickHouseQueryException.class, () -> bad.query("SELECT 1"));
            assertTrue(e.getMessage().contains("516") || e.getMessage().contains("AUTHENTICATION_FAILED"),
                e.getMessage());
            assertFalse(e.getMessage().contains(wrong), e.getMessage());
            assertFalse(e.getMessage().contains(twin.password()), e.getMessage());
        }
    }
}
