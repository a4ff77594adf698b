package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.StreamIdentity;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.DponeException;
import io.dpone.testing.TestEngines;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ClickHouse checkpoint table beyond the offset-store contract (which
 * {@code io.dpone.cdc.ClickHouseOffsetStoreContractTest} runs against it): the latest save wins across parts and merges.
 */
class ClickHouseOffsetStoreTest {
    static final StreamIdentity STREAM = ClickHouseCdcSinkApplierTest.STREAM;
    static final StreamIdentity OTHER = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id", "region"));

    ClickHouseEndpoint ch;
    String db;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("cdc_offsets");
    }

    @AfterEach
    void close() {
        ch.close();
    }

    CdcOffsetStore store() {
        return new ClickHouseOffsetStore(ch, db, "cdc_offsets");
    }

    @Test
    void theLatestSaveWinsAcrossPartsMergesAndStoreInstances() {
        store().save(STREAM, new CdcOffset("mssql_cdc", "0x14", true));
        store().save(STREAM, new CdcOffset("mssql_cdc", "0x15", true));
        store().save(STREAM, new CdcOffset("mssql_cdc", "0x16", true));
        assertEquals("0x16", store().load(STREAM).orElseThrow().token());
        ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(db, "cdc_offsets") + " FINAL");
        assertEquals("0x16", store().load(STREAM).orElseThrow().token());
        StreamIdentity second = new StreamIdentity("customers-cdc", "mssql_cdc", "dbo", "customers",
            "analytics.customers", List.of("customer_id"));
        store().save(second, new CdcOffset("mssql_cdc", "0x3", false));
        assertEquals("0x16", store().load(STREAM).orElseThrow().token());
        assertEquals(new CdcOffset("mssql_cdc", "0x3", false), store().load(second).orElseThrow());
        String ddl = ch.query("SELECT engine FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = 'cdc_offsets'").get(0).get(0);
        assertEquals("ReplacingMergeTree", ddl);
    }

    @Test
    void aTableFromBeforeTheResumeColumnIsReadAndThenUpgradedBySave() {
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(db));
        ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "cdc_offsets") + " (checkpoint_key String, "
            + "schema String, stream_id String, stream_json String, backend String, token String, "
            + "snapshot_complete UInt8, saved_at DateTime64(3, 'UTC'), saved_version UInt64) "
            + "ENGINE = ReplacingMergeTree(saved_version) ORDER BY checkpoint_key");
        assertTrue(store().load(STREAM).isEmpty(), "an empty old table: no checkpoint");
        ch.execute("INSERT INTO " + ClickHouseSql.table(db, "cdc_offsets") + " VALUES ("
            + ClickHouseSql.literal(STREAM.pipelineName()) + ", " + ClickHouseSql.literal(ClickHouseOffsetStore.SCHEMA)
            + ", " + ClickHouseSql.literal(STREAM.streamId()) + ", " + ClickHouseSql.literal(
                io.dpone.cdc.CdcHashes.canonicalJson(STREAM.toMap())) + ", 'mssql_cdc', '0x20', 1, now64(3), 5)");
        assertEquals(new CdcOffset("mssql_cdc", "0x20", true), store().load(STREAM).orElseThrow());
        store().save(STREAM, new CdcOffset("mssql_cdc", "0x21", true, "{\"lsn\":\"0x21\"}"));
        assertEquals(new CdcOffset("mssql_cdc", "0x21", true, "{\"lsn\":\"0x21\"}"), store().load(STREAM).orElseThrow());
    }
}
