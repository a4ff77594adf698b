package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcOffset;
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
 * A checkpoint table that is not the store's (found by the fuzz suite's offset_row kind): a missing column used to
 * pass the load and crash the commit's insert ({@code runtime.internal_error} with the engine's text), a
 * {@code saved_version} beyond a long crashed the load. Both are now {@code cdc_runtime.checkpoint_invalid} naming the
 * column, and the table is not written.
 */
@io.dpone.testing.EngineTest
class ClickHouseOffsetTableTest {
    static final StreamIdentity STREAM = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id"));
    ClickHouseEndpoint ch;
    String db;
    String table;

    @BeforeEach
    void open() {
        ch = TestEngines.clickhouse();
        db = TestEngines.newDatabase("offset_table");
        table = ClickHouseSql.table(db, "offsets");
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(db));
    }

    @AfterEach
    void close() {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        ch.close();
    }

    private void refused(String field) {
        List<List<String>> before = ch.query("SELECT * FROM " + table + " ORDER BY tuple()");
        ClickHouseOffsetStore store = new ClickHouseOffsetStore(ch, db, "offsets");
        DponeException load = assertThrows(DponeException.class, () -> store.load(STREAM));
        assertEquals(CdcBlockers.CHECKPOINT_INVALID, load.blockers().get(0).code());
        assertEquals(field, load.blockers().get(0).details().get("field"), load.getMessage());
        DponeException commit = assertThrows(DponeException.class, () -> store.commit(STREAM, Optional.empty(),
            new CdcOffset("mssql_cdc", "0x" + "0".repeat(19) + "1", true, null), "writer-1"));
        assertEquals(CdcBlockers.CHECKPOINT_INVALID, commit.blockers().get(0).code());
        assertEquals(before, ch.query("SELECT * FROM " + table + " ORDER BY tuple()"), "not written");
    }

    private String row(String savedVersion) {
        return "(" + String.join(", ", ClickHouseSql.literal("orders-cdc"), ClickHouseSql.literal("dpone.cdc_checkpoint.v1"),
            ClickHouseSql.literal(STREAM.streamId()), ClickHouseSql.literal(io.dpone.cdc.CdcHashes.canonicalJson(STREAM.toMap())),
            "'mssql_cdc'", "'0x00000000000000000001'", "1", savedVersion) + ")";
    }

    @Test
    void aTableWithoutAColumnIsRefusedOnLoadAndOnCommit() {
        ch.execute("CREATE TABLE " + table + " (checkpoint_key String, schema String, stream_id String, "
            + "stream_json String, backend String, token String, snapshot_complete UInt8, saved_version UInt64) "
            + "ENGINE = MergeTree ORDER BY tuple()");
        ch.execute("INSERT INTO " + table + " VALUES " + row("7"));
        refused("saved_at");
    }

    @Test
    void aColumnOfAnotherTypeIsRefused() {
        ch.execute("CREATE TABLE " + table + " (checkpoint_key String, schema String, stream_id String, "
            + "stream_json String, backend String, token String, snapshot_complete String, saved_version UInt64, "
            + "saved_at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY tuple()");
        ch.execute("INSERT INTO " + table + " (checkpoint_key, schema, stream_id, stream_json, backend, token, "
            + "snapshot_complete, saved_version) VALUES " + row("7"));
        refused("snapshot_complete");
    }

    /** A table from before capture instances were recorded reads as the configured one and gets the column. */
    @Test
    void aTableWithoutTheCaptureInstanceColumnReadsAsTheConfiguredInstanceAndGetsItOnCommit() {
        ch.execute("CREATE TABLE " + table + " (checkpoint_key String, schema String, stream_id String, "
            + "stream_json String, backend String, token String, snapshot_complete UInt8, saved_version UInt64, "
            + "saved_at DateTime64(3, 'UTC'), resume String DEFAULT '', writer String DEFAULT '') "
            + "ENGINE = ReplacingMergeTree(saved_version) ORDER BY checkpoint_key");
        ch.execute("INSERT INTO " + table + " (checkpoint_key, schema, stream_id, stream_json, backend, token, "
            + "snapshot_complete, saved_version) VALUES " + row("7"));
        ClickHouseOffsetStore store = new ClickHouseOffsetStore(ch, db, "offsets");
        Optional<CdcOffset> loaded = store.load(STREAM);
        assertEquals(Optional.of(new CdcOffset("mssql_cdc", "0x00000000000000000001", true)), loaded);
        CdcOffset next = new CdcOffset("mssql_cdc", "0x00000000000000000002", true, null, "dbo_orders_v2");
        store.commit(STREAM, loaded, next, "writer-1");
        assertEquals(Optional.of(next), store.load(STREAM));
    }

    /** Found by the fuzz suite: the commit's next version overflowed and its row was left below the stored one. */
    @Test
    void aVersionAtTheLongMaximumIsRefusedBeforeAnythingIsWritten() {
        ch.execute("CREATE TABLE " + table + " (checkpoint_key String, schema String, stream_id String, "
            + "stream_json String, backend String, token String, snapshot_complete UInt8, saved_version UInt64, "
            + "saved_at DateTime64(3, 'UTC'), resume String, writer String) ENGINE = MergeTree ORDER BY tuple()");
        ch.execute("INSERT INTO " + table + " (checkpoint_key, schema, stream_id, stream_json, backend, token, "
            + "snapshot_complete, saved_version) VALUES " + row(Long.toString(Long.MAX_VALUE)));
        List<List<String>> before = ch.query("SELECT * FROM " + table);
        ClickHouseOffsetStore store = new ClickHouseOffsetStore(ch, db, "offsets");
        Optional<CdcOffset> loaded = store.load(STREAM);
        DponeException commit = assertThrows(DponeException.class, () -> store.commit(STREAM, loaded,
            new CdcOffset("mssql_cdc", "0x" + "0".repeat(18) + "ff", true, null), "writer-1"));
        assertEquals(CdcBlockers.CHECKPOINT_INVALID, commit.blockers().get(0).code());
        assertEquals(before, ch.query("SELECT * FROM " + table), "not written");
    }

    @Test
    void aVersionBeyondALongIsRefused() {
        ch.execute("CREATE TABLE " + table + " (checkpoint_key String, schema String, stream_id String, "
            + "stream_json String, backend String, token String, snapshot_complete UInt8, saved_version UInt64, "
            + "saved_at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY tuple()");
        ch.execute("INSERT INTO " + table + " (checkpoint_key, schema, stream_id, stream_json, backend, token, "
            + "snapshot_complete, saved_version) VALUES " + row("18446744073709551615"));
        refused("saved_version");
    }
}
