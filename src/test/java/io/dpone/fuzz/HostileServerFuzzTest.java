package io.dpone.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.source.SourceConnections;
import io.dpone.testing.HostileServer;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded fake servers for both wires: a ClickHouse HTTP endpoint and a SQL Server (TDS) port that say nothing, drip,
 * flood the body or the headers, or answer garbage, with a random drip interval and garbage seed. Every case ends
 * within its configured bounds with the typed {@code connection.failed} naming the alias, never the endpoint.
 */
class HostileServerFuzzTest {
    static final int CASES = FuzzInvariants.cases(24);
    static final Duration BOUND = Duration.ofSeconds(15);

    @Test
    void everyHostileServerCaseIsBoundedAndTyped() throws Exception {
        long seed = FuzzInvariants.seed();
        Random random = new Random(seed + 17);
        HostileServer.Mode[] modes = HostileServer.Mode.values();
        for (int i = 0; i < CASES; i++) {
            HostileServer.Mode mode = modes[random.nextInt(modes.length)];
            boolean tds = random.nextBoolean();
            long drip = 50 + random.nextInt(400);
            long garbage = random.nextLong();
            String what = "case " + i + " (seed " + seed + "): " + (tds ? "tds " : "clickhouse ") + mode + " drip "
                + drip + "ms";
            try (HostileServer server = new HostileServer(mode, drip, garbage)) {
                long start = System.nanoTime();
                DponeException e = null;
                try {
                    if (tds) {
                        SourceConnections.open(new ConnectionSpec("mssql_fuzz", ConnectionType.MSSQL,
                            "jdbc:sqlserver://127.0.0.1:" + server.port() + ";databaseName=x;encrypt=false", "dpone",
                            null, false, Map.of("login_timeout", "2s", "socket_timeout", "2s")), "dpone").close();
                    } else {
                        try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(new ConnectionSpec("ch_fuzz",
                            ConnectionType.CLICKHOUSE, server.url(), "dpone", null, false, Map.of("socket_timeout",
                                "1s", "response_timeout", "2s", "max_response_bytes", "256KiB")))) {
                            ch.query("SELECT 1");
                        }
                    }
                    fail(what + ": a hostile server was accepted");
                } catch (DponeException d) {
                    e = d;
                }
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertTrue(took.compareTo(BOUND) < 0, what + " took " + took);
                assertEquals(BlockerCode.CONNECTION_FAILED.code(), e.blockers().get(0).code(), what + ": " + e.getMessage());
                assertEquals(tds ? "mssql_fuzz" : "ch_fuzz", e.blockers().get(0).subject(), what);
                assertFalse(e.getMessage().contains(String.valueOf(server.port())), what + ": " + e.getMessage());
            }
        }
    }
}
