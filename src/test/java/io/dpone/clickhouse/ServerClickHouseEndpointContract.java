package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.error.DponeException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@link ServerClickHouseEndpoint} must do beyond the endpoint contract, against whatever serves ClickHouse's
 * HTTP interface: a real server ({@code ServerClickHouseEndpointIT}) or the twin
 * ({@code ServerClickHouseEndpointTwinTest}).
 */
public abstract class ServerClickHouseEndpointContract extends ClickHouseEndpointContract {
    /** The alias of the server under test with {@code password} and {@code options}. */
    protected abstract ConnectionSpec spec(String password, Map<String, String> options);

    /** The server's right password. */
    protected abstract String password();

    @Test
    void kindIsServer() {
        assertEquals("server", endpoint().kind());
    }

    @Test
    void wrongPasswordIsAServerErrorThatNamesNoSecret() {
        String wrong = "not-the-password-" + System.nanoTime();
        try (ServerClickHouseEndpoint bad = ServerClickHouseEndpoint.open(spec(wrong, Map.of()))) {
            ClickHouseQueryException e = assertThrows(ClickHouseQueryException.class, () -> bad.query("SELECT 1"));
            assertFalse(e.getMessage().contains(wrong), e.getMessage());
            assertFalse(e.getMessage().contains(password()), e.getMessage());
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
    void aMalformedSocketTimeoutIsRefusedBeforeAnyRequest() {
        for (String bad : new String[] {"0s", "ten minutes", "-1s", "5"}) {
            DponeException e = assertThrows(DponeException.class,
                () -> ServerClickHouseEndpoint.open(spec(password(), Map.of("socket_timeout", bad))), bad);
            assertEquals("connection.context_invalid", e.blockers().get(0).code(), bad);
            assertEquals(spec(password(), Map.of()).alias(), e.blockers().get(0).subject(), bad);
        }
    }

    @Test
    void defaultDatabaseOptionIsUsed() {
        endpoint().execute("CREATE TABLE " + table("in_db") + " (id Int64) ENGINE = MergeTree ORDER BY id");
        ConnectionSpec scopedSpec = spec(password(), Map.of("database", db));
        try (ServerClickHouseEndpoint scoped = ServerClickHouseEndpoint.open(scopedSpec)) {
            assertEquals(db, scoped.query("SELECT currentDatabase()").get(0).get(0));
            assertEquals("0", scoped.query("SELECT count() FROM in_db").get(0).get(0));
        }
    }
}
