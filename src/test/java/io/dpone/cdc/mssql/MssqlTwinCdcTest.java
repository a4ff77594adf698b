package io.dpone.cdc.mssql;

import io.dpone.testing.mssql.MssqlTwinProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MssqlChangeContract} against the SQL Server twin (its own process; capture at commit instead of a log
 * reader job). A twin run, not a server run (docs/testing.md).
 */
@io.dpone.testing.ProcessTest
class MssqlTwinCdcTest extends MssqlChangeContract {
    private MssqlTwinProcess twin;

    @TempDir
    static Path twinHome;

    @Override
    Server start() throws Exception {
        twin = MssqlTwinProcess.start(twinHome.resolve("twin"));
        return new Server(twin.url(), MssqlTwinProcess.DATABASE, MssqlTwinProcess.USER, twin.password());
    }

    @AfterAll
    void stop() {
        if (twin != null) {
            twin.close();
        }
    }
}
