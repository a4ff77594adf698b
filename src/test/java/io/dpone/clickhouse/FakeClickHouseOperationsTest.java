package io.dpone.clickhouse;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The operations contract on {@link FakeClickHouseEndpoint}, the processor tests' ClickHouse: it must answer as the
 * embedded engine and the twin do, and it runs no SQL at all.
 */
class FakeClickHouseOperationsTest extends ClickHouseOperationsContract {
    private final FakeClickHouseEndpoint endpoint = new FakeClickHouseEndpoint();

    @Override
    protected ClickHouseEndpoint endpoint() {
        return endpoint;
    }

    @Test
    void theFakeRunsNoSql() {
        assertThrows(IllegalArgumentException.class, () -> endpoint.execute("SELECT 1"));
        assertThrows(IllegalArgumentException.class, () -> endpoint.query("SELECT 1"));
    }
}
