package io.dpone.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A SQL Server that accepts the connection and never answers costs a source open at most its login timeout, and
 * the failure is the typed {@code connection.failed}; the timeouts come from the alias, the environment or the
 * documented defaults, and a malformed one is refused typed.
 */
class SourceConnectionTimeoutTest {

    /** Accepts every connection and never writes a byte (the connections stay open until the test ends). */
    static final class SilentServer implements AutoCloseable {
        final ServerSocket server;
        final List<Socket> held = new ArrayList<>();
        final Thread acceptor;

        SilentServer() throws Exception {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = server.accept();
                        synchronized (held) {
                            held.add(s);
                        }
                    }
                } catch (Exception e) {
                    // closed
                }
            }, "silent-tds");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            server.close();
            synchronized (held) {
                for (Socket s : held) {
                    s.close();
                }
            }
        }
    }

    static ConnectionSpec mssql(int port, Map<String, String> options) {
        return new ConnectionSpec("mssql_silent", ConnectionType.MSSQL,
            "jdbc:sqlserver://127.0.0.1:" + port + ";databaseName=x;encrypt=false", "dpone", null, false, options);
    }

    @Test
    void aSilentServerCostsAtMostTheLoginTimeoutAndIsTyped() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            long start = System.nanoTime();
            DponeException e = assertThrows(DponeException.class,
                () -> SourceConnections.open(mssql(silent.port(), Map.of("login_timeout", "2s")), "dpone"));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(BlockerCode.CONNECTION_FAILED.code(), e.blockers().get(0).code());
            assertEquals("mssql_silent", e.blockers().get(0).subject());
            assertTrue(took.compareTo(Duration.ofSeconds(6)) < 0, "bounded by the 2s login timeout, took " + took);
            assertTrue(!silent.held.isEmpty(), "the fake server saw the connection");
        }
    }

    @Test
    void timeoutsComeFromTheAliasThenTheEnvironmentThenTheDefaults() {
        ConnectionSpec plain = mssql(1, Map.of());
        SourceConnections.Timeouts d = SourceConnections.Timeouts.of(plain, Map.of());
        assertEquals(SourceConnections.DEFAULT_LOGIN_TIMEOUT, d.login());
        assertEquals(SourceConnections.DEFAULT_SOCKET_TIMEOUT, d.socket());
        assertEquals(SourceConnections.DEFAULT_QUERY_TIMEOUT, d.query());
        SourceConnections.Timeouts env = SourceConnections.Timeouts.of(plain,
            Map.of("DPONE_MSSQL_LOGIN_TIMEOUT", "5s", "DPONE_MSSQL_SOCKET_TIMEOUT", "2m", "DPONE_MSSQL_QUERY_TIMEOUT", "90s"));
        assertEquals(Duration.ofSeconds(5), env.login());
        assertEquals(Duration.ofMinutes(2), env.socket());
        assertEquals(Duration.ofSeconds(90), env.query());
        SourceConnections.Timeouts alias = SourceConnections.Timeouts.of(mssql(1, Map.of("login_timeout", "3s")),
            Map.of("DPONE_MSSQL_LOGIN_TIMEOUT", "5s"));
        assertEquals(Duration.ofSeconds(3), alias.login());
        for (String bad : List.of("0s", "forever", "500ms", "-1s")) {
            DponeException e = assertThrows(DponeException.class,
                () -> SourceConnections.Timeouts.of(mssql(1, Map.of("login_timeout", bad)), Map.of()), bad);
            assertEquals(BlockerCode.CONNECTION_CONTEXT_INVALID.code(), e.blockers().get(0).code());
        }
    }
}
