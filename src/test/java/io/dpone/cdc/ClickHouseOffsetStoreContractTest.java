package io.dpone.cdc;

import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.testing.TestEngines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** {@link CdcOffsetStoreContract} on the ClickHouse checkpoint table (embedded engine, one database per test). */
@io.dpone.testing.EngineTest
class ClickHouseOffsetStoreContractTest extends CdcOffsetStoreContract {
    ClickHouseEndpoint ch;
    String db;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("cdc_contract_offsets");
    }

    @AfterEach
    void close() {
        ch.close();
    }

    @Override
    CdcOffsetStore store() {
        return new ClickHouseOffsetStore(ch, db, "cdc_offsets");
    }
}
