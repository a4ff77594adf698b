package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.testing.TestEngines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract on the embedded engine. chDB allows one data path per JVM, so every test class that opens the
 * embedded endpoint uses the same directory; tests keep apart by database name.
 */
@io.dpone.testing.EngineTest
class EmbeddedClickHouseEndpointTest extends ClickHouseEndpointContract {
    private static ClickHouseEndpoint endpoint;

    @BeforeAll
    static void open() {
        endpoint = TestEngines.clickhouse();
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
    void kindIsEmbedded() {
        assertEquals("embedded", endpoint.kind());
    }

    @Test
    void openingTheSamePathTwiceSharesTheEngine() {
        try (EmbeddedClickHouseEndpoint second = EmbeddedClickHouseEndpoint.open(TestEngines.clickHousePath())) {
            assertEquals("embedded", second.kind());
            assertEquals("2", second.query("SELECT 1 + 1").get(0).get(0));
        }
        // closing the second handle leaves the first one working
        assertEquals("1", endpoint.query("SELECT 1").get(0).get(0));
    }
}
