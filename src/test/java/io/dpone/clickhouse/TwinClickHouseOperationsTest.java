package io.dpone.clickhouse;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Secret;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operations contract on a server endpoint: {@link SqlOperations}' statements sent by client-v2 with the
 * production settings to the ClickHouse HTTP twin (its own process over its own embedded engine). The twin is this
 * class's own, its engine configured with the contract's clusters
 * ({@link ClickHouseOperationsContract#remoteServers()}).
 */
@io.dpone.testing.ProcessTest
class TwinClickHouseOperationsTest extends ClickHouseOperationsContract {
    private static TwinProcess twin;
    private static ServerClickHouseEndpoint endpoint;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        Path config = Files.writeString(dir.resolve("twin-config.xml"), "<clickhouse>" + remoteServers()
            + "</clickhouse>");
        twin = TwinProcess.start(dir.resolve("twin"), config);
        endpoint = ServerClickHouseEndpoint.open(new ConnectionSpec("clickhouse_twin", ConnectionType.CLICKHOUSE,
            twin.url(), TwinProcess.USER, Secret.of(twin.password()), false, Map.of()));
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

    @Override
    protected ObjectStorage objectStorage() {
        return LoopbackS3.start();
    }
}
