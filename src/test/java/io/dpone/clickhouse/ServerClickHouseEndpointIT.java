package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Secret;
import io.dpone.error.DponeException;
import io.dpone.testing.ItServers;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract on a real ClickHouse server over HTTP ({@link ItServers#clickhouse()}: one named by
 * {@code DPONE_IT_CLICKHOUSE_URL}, or a container). Skipped when there is neither.
 */
class ServerClickHouseEndpointIT extends ClickHouseEndpointContract {
    private static ServerClickHouseEndpoint endpoint;

    static ConnectionSpec spec(String password) {
        ItServers.Server server = ItServers.clickhouse();
        return new ConnectionSpec("clickhouse_it", ConnectionType.CLICKHOUSE, server.url(), server.user(),
            Secret.of(password), false, Map.of());
    }

    @BeforeAll
    static void open() {
        endpoint = ServerClickHouseEndpoint.open(spec(ItServers.clickhouse().password()));
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

    @Test
    void kindIsServer() {
        assertEquals("server", endpoint.kind());
    }

    @Test
    void wrongPasswordIsAServerErrorThatNamesNoSecret() {
        String wrong = "not-the-password-" + System.nanoTime();
        try (ServerClickHouseEndpoint bad = ServerClickHouseEndpoint.open(spec(wrong))) {
            ClickHouseQueryException e = assertThrows(ClickHouseQueryException.class, () -> bad.query("SELECT 1"));
            assertFalse(e.getMessage().contains(wrong), e.getMessage());
        }
    }

    @Test
    void unreachableServerFailsWithoutNamingTheEndpoint() {
        ConnectionSpec closedPort = new ConnectionSpec("clickhouse_down", ConnectionType.CLICKHOUSE,
            "http://127.0.0.1:1", "default", null, false, Map.of());
        try (ServerClickHouseEndpoint down = ServerClickHouseEndpoint.open(closedPort)) {
            DponeException e = assertThrows(DponeException.class, () -> down.execute("SELECT 1"));
            assertFalse(e.getMessage().contains("127.0.0.1"), e.getMessage());
        }
    }

    @Test
    void defaultDatabaseOptionIsUsed() {
        endpoint.execute("CREATE TABLE " + table("in_db") + " (id Int64) ENGINE = MergeTree ORDER BY id");
        ConnectionSpec withDb = new ConnectionSpec("clickhouse_it_db", ConnectionType.CLICKHOUSE,
            ItServers.clickhouse().url(), ItServers.clickhouse().user(), Secret.of(ItServers.clickhouse().password()),
            false, Map.of("database", db));
        try (ServerClickHouseEndpoint scoped = ServerClickHouseEndpoint.open(withDb)) {
            assertEquals(db, scoped.query("SELECT currentDatabase()").get(0).get(0));
            assertEquals("0", scoped.query("SELECT count() FROM in_db").get(0).get(0));
        }
    }
}
