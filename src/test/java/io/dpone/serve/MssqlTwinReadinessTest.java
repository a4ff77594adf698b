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
 * Serve's connection check of a SQL Server alias through the real mssql-jdbc against the twin: up when the login
 * works, down (with neither the password nor the endpoint in its details) when it does not. A twin run, not a
 * server run (docs/testing.md).
 */
@io.dpone.testing.ProcessTest
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

    /** One probe of {@code check}, on a worker of its own, awaited (bounded). */
    static ConnectionHealthCheck probed(ConnectionHealthCheck check) throws Exception {
        java.util.concurrent.ExecutorService worker = java.util.concurrent.Executors.newSingleThreadExecutor();
        check.refresh(worker, java.time.Duration.ZERO);
        worker.shutdown();
        assertTrue(worker.awaitTermination(60, java.util.concurrent.TimeUnit.SECONDS), "the probe did not end");
        return check;
    }

    @Test
    void aWorkingLoginIsUpAndAWrongOneIsDown() throws Exception {
        java.time.Duration deadline = java.time.Duration.ofSeconds(30);
        assertTrue(probed(new ConnectionHealthCheck(context(twin.password()), "mssql_twin", deadline)).up());
        String wrong = "Wrong-" + System.nanoTime();
        ConnectionHealthCheck down = probed(new ConnectionHealthCheck(context(wrong), "mssql_twin", deadline));
        assertFalse(down.up());
        String details = String.valueOf(down.call().getDetails());
        assertFalse(details.contains(wrong) || details.contains(String.valueOf(twin.port())), details);
    }
}
