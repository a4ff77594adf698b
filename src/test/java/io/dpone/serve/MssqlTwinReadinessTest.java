package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.testing.mssql.MssqlTwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Serve's readiness check of a SQL Server alias through the real mssql-jdbc against the twin: up when the login
 * works, down (with neither the password nor the endpoint in its details) when it does not. A twin run, not a
 * server run (docs/testing.md).
 */
class MssqlTwinReadinessTest {
    static MssqlTwinProcess twin;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        twin = MssqlTwinProcess.start(dir.resolve("twin"));
    }

    @AfterAll
    static void stop() {
        if (twin != null) {
            twin.close();
        }
    }

    static ConnectionContext context(String password) throws Exception {
        Path file = Files.writeString(Files.createTempFile(dir, "pw", ""), password);
        return ConnectionContext.of(Map.of("mssql_twin", new ContextEntry("mssql_twin", ConnectionType.MSSQL,
            twin.url(), MssqlTwinProcess.USER, null, file.toString(), false, Map.of())), false);
    }

    @Test
    void aWorkingLoginIsReadyAndAWrongOneIsNot() throws Exception {
        assertTrue(new ConnectionHealthCheck(context(twin.password()), "mssql_twin").up());
        String wrong = "Wrong-" + System.nanoTime();
        ConnectionHealthCheck down = new ConnectionHealthCheck(context(wrong), "mssql_twin");
        assertFalse(down.up());
        String details = String.valueOf(down.call().getDetails());
        assertFalse(details.contains(wrong) || details.contains(String.valueOf(twin.port())), details);
    }
}
