package io.dpone.cdc;

import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplier;
import io.dpone.cdc.clickhouse.ClickHouseOffsetStore;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CDC contracts on a ClickHouse server alias through the HTTP twin: the ClickHouse offset store (compare-and-set
 * commits) and the CDC log applier, over {@code ServerClickHouseEndpoint} and client-v2 as in production.
 */
@io.dpone.testing.ProcessTest
class TwinCdcContractsTest {
    @Nested
    class OffsetStore extends CdcOffsetStoreContract {
        ClickHouseEndpoint ch;
        String db;

        @BeforeEach
        void open() {
            ch = TwinProcess.shared().endpoint();
            db = TestEngines.newDatabase("twin_cdc_offsets");
        }

        @AfterEach
        void close() {
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            ch.close();
        }

        @Override
        CdcOffsetStore store() {
            return new ClickHouseOffsetStore(ch, db, "cdc_offsets");
        }
    }

    @Nested
    class SinkApplier extends CdcSinkApplierContract {
        @TempDir
        Path dir;
        ClickHouseEndpoint ch;
        String db;

        @BeforeEach
        void open() {
            ch = TwinProcess.shared().endpoint();
            db = TestEngines.newDatabase("twin_cdc_sink");
        }

        @AfterEach
        void close() {
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            ch.close();
        }

        @Override
        CdcSinkApplier applier() {
            return new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(),
                dir.resolve("spool"));
        }

        @Override
        int rowCount() {
            return ClickHouseSinkApplierContractTest.logRows(ch, db);
        }
    }
}
