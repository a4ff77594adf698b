package io.dpone.cdc;

import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplier;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** {@link CdcSinkApplierContract} on the ClickHouse CDC log (embedded engine, one database per test). */
@io.dpone.testing.EngineTest
class ClickHouseSinkApplierContractTest extends CdcSinkApplierContract {
    @TempDir
    Path dir;
    ClickHouseEndpoint ch;
    String db;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("cdc_contract_sink");
    }

    @AfterEach
    void close() {
        ch.close();
    }

    @Override
    CdcSinkApplier applier() {
        return new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(), dir.resolve("spool"));
    }

    @Override
    int rowCount() {
        return logRows(ch, db);
    }

    /** Rows in the CDC log {@code db.orders_cdc} on {@code ch}; 0 before the applier created it. */
    static int logRows(ClickHouseEndpoint ch, String db) {
        if (ch.query("SELECT 1 FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = 'orders_cdc'").isEmpty()) {
            return 0;
        }
        return Integer.parseInt(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc")).get(0).get(0));
    }
}
