package io.dpone.route;

import io.dpone.testing.mssql.MssqlTwinProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MssqlSourceContract} and {@link RealSchemaContract} against the SQL Server twin (its own process, the real mssql-jdbc). The object-storage
 * routes read the source the same way and run in the certification through the twin
 * ({@code MssqlTwinCertificationTest}). A twin run, not a server run (docs/testing.md).
 */
@io.dpone.testing.ProcessTest
class MssqlTwinFullRefreshTest extends RealSchemaContract {
    private MssqlTwinProcess twin;

    @TempDir
    static Path home;

    @Override
    Server start() throws Exception {
        twin = MssqlTwinProcess.start(home.resolve("twin"));
        return new Server(twin.url(), twin.tlsUrl(), MssqlTwinProcess.USER, twin.passwordFile());
    }

    @AfterAll
    void stop() {
        if (twin != null) {
            twin.close();
        }
    }
}
