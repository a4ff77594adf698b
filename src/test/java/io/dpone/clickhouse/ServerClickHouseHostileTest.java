package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.testing.HostileServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * A ClickHouse server that says nothing, drips its response a byte at a time, sends an endless body, endless
 * headers or garbage costs a statement at most its configured bounds (socket_timeout, response_timeout,
 * max_response_bytes, the response head limits) and fails with the typed {@code connection.failed}.
 */
// waits on a hostile server: beside the other classes where parallel execution is on (-Pfast)
@Execution(ExecutionMode.CONCURRENT)
class ServerClickHouseHostileTest {
    static final Duration BOUND = Duration.ofSeconds(15);

    static ConnectionSpec spec(String url, Map<String, String> options) {
        return new ConnectionSpec("ch_hostile", ConnectionType.CLICKHOUSE, url, "dpone", null, false, options);
    }

    @ParameterizedTest
    @EnumSource(HostileServer.Mode.class)
    void everyMisbehaviourIsBoundedAndTyped(HostileServer.Mode mode) throws Exception {
        try (HostileServer server = new HostileServer(mode, 300, 42);
             ServerClickHouseEndpoint ch = ServerClickHouseEndpoint.open(spec(server.url(), Map.of(
                 "socket_timeout", "1s", "response_timeout", "3s", "max_response_bytes", "1MiB")))) {
            long start = System.nanoTime();
            DponeException e = assertThrows(DponeException.class, () -> ch.query("SELECT 1"), mode.name());
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(BlockerCode.CONNECTION_FAILED.code(), e.blockers().get(0).code(), e.getMessage());
            assertEquals("ch_hostile", e.blockers().get(0).subject());
            assertTrue(took.compareTo(BOUND) < 0, mode + " took " + took);
            assertTrue(!e.getMessage().contains("127.0.0.1:" + server.port()), e.getMessage());
            if (mode == HostileServer.Mode.DRIP) {
                assertTrue(e.getMessage().contains("response_timeout"), e.getMessage());
            }
            if (mode == HostileServer.Mode.ENDLESS_BODY) {
                assertTrue(e.getMessage().contains("max_response_bytes"), e.getMessage());
            }
            if (mode == HostileServer.Mode.ENDLESS_HEADERS || mode == HostileServer.Mode.ENDLESS_HEADER_LINE) {
                assertTrue(e.getMessage().contains("headers beyond the limits"), e.getMessage());
            }
        }
    }

    @Test
    void aDripDoesNotPoisonTheEndpoint() throws Exception {
        try (HostileServer server = new HostileServer(HostileServer.Mode.DRIP, 200, 1);
             ServerClickHouseEndpoint ch = ServerClickHouseEndpoint.open(spec(server.url(), Map.of(
                 "socket_timeout", "1s", "response_timeout", "1s")))) {
            for (int i = 0; i < 2; i++) { // the second request runs on a fresh client and is bounded the same way
                DponeException e = assertThrows(DponeException.class, () -> ch.execute("SELECT 1"));
                assertTrue(e.getMessage().contains("response_timeout"), e.getMessage());
            }
        }
    }

    @Test
    void malformedLimitsAreRefusedTyped() {
        for (Map<String, String> bad : new Map[] {Map.of("response_timeout", "soon"),
            Map.of("max_response_bytes", "lots"), Map.of("max_response_bytes", "0")}) {
            DponeException e = assertThrows(DponeException.class,
                () -> ServerClickHouseEndpoint.open(spec("http://127.0.0.1:1", bad)));
            assertEquals(BlockerCode.CONNECTION_CONTEXT_INVALID.code(), e.blockers().get(0).code());
        }
    }
}
