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
@io.dpone.testing.EngineTest
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

    private void commitNext(StreamIdentity stream, CdcOffset next) {
        CdcOffsetStore s = store();
        s.commit(stream, s.load(stream), next, "test-writer");
    }

    /**
     * Two writers pass the compare together: the second writer's whole commit runs while the first one's insert is
     * on its way (an endpoint that runs it just before the first insert). Neither may come out as the winner of an
     * undetected race: at least one is told {@code offset_conflict}, and the kept offset is one of the two.
     */
    @Test
    void twoWritersCommittingAtTheSameMomentCannotBothWin() {
        commitNext(STREAM, new CdcOffset("mssql_cdc", "0x10", true));
        Optional<CdcOffset> loaded = store().load(STREAM);
        ClickHouseOffsetStore other = new ClickHouseOffsetStore(ch, db, "cdc_offsets");
        boolean[] otherWon = {false};
        ClickHouseEndpoint racing = new ClickHouseEndpoint() {
            boolean raced;

            @Override
            public void execute(String sql) {
                if (!raced && sql.startsWith("INSERT INTO")) {
                    raced = true;
                    try {
                        other.commit(STREAM, loaded, new CdcOffset("mssql_cdc", "0x12", true), "tick-b");
                        otherWon[0] = true;
                    } catch (DponeException e) {
                        assertEquals(CdcBlockers.OFFSET_CONFLICT, e.blockers().get(0).code());
                    }
                }
                ch.execute(sql);
            }

            @Override
            public List<List<String>> query(String sql) {
                return ch.query(sql);
            }

            @Override
            public void insertFile(InsertFile insert) {
                ch.insertFile(insert);
            }

            @Override
            public String kind() {
                return ch.kind();
            }

            @Override
            public void close() {
            }
        };
        DponeException lost = assertThrows(DponeException.class, () -> new ClickHouseOffsetStore(racing, db,
            "cdc_offsets").commit(STREAM, loaded, new CdcOffset("mssql_cdc", "0x11", true), "tick-a"));
        assertEquals(CdcBlockers.OFFSET_CONFLICT, lost.blockers().get(0).code());
        assertEquals("tick-b", lost.blockers().get(0).details().get("other_writer"));
        assertTrue(otherWon[0], "the writer that read alone after its insert won");
        assertTrue(List.of("0x11", "0x12").contains(store().load(STREAM).orElseThrow().token()));
        ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(db, "cdc_offsets") + " FINAL");
        DponeException afterMerge = assertThrows(DponeException.class, () -> store().commit(STREAM, loaded,
            new CdcOffset("mssql_cdc", "0x13", true), "tick-c"));
        assertEquals(CdcBlockers.OFFSET_CONFLICT, afterMerge.blockers().get(0).code());
    }

    @Test
    void theLatestSaveWinsAcrossPartsMergesAndStoreInstances() {
        commitNext(STREAM, new CdcOffset("mssql_cdc", "0x14", true));
        commitNext(STREAM, new CdcOffset("mssql_cdc", "0x15", true));
        commitNext(STREAM, new CdcOffset("mssql_cdc", "0x16", true));
        assertEquals("0x16", store().load(STREAM).orElseThrow().token());
        ch.execute("OPTIMIZE TABLE " + ClickHouseSql.table(db, "cdc_offsets") + " FINAL");
        assertEquals("0x16", store().load(STREAM).orElseThrow().token());
        StreamIdentity second = new StreamIdentity("customers-cdc", "mssql_cdc", "dbo", "customers",
            "analytics.customers", List.of("customer_id"));
        commitNext(second, new CdcOffset("mssql_cdc", "0x3", false));
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
        commitNext(STREAM, new CdcOffset("mssql_cdc", "0x21", true, "{\"lsn\":\"0x21\"}"));
        assertEquals(new CdcOffset("mssql_cdc", "0x21", true, "{\"lsn\":\"0x21\"}"), store().load(STREAM).orElseThrow());
    }

    /**
     * A row whose stream fields are this stream's but whose id, backend, token or resume breaks the rules is
     * {@code checkpoint_invalid} naming the field, on load and on commit, and no row is added.
     */
    @Test
    void aRowThatBreaksTheStreamsRulesIsRefusedByFieldAndNothingIsAdded() {
        String[][] cases = {
            {"00000000000000000000000000000000", "mssql_cdc", "0x20", "", "stream_id"},
            {STREAM.streamId(), "mssql_change_tracking", "0x20", "", "offset.backend"},
            {STREAM.streamId(), "mssql_cdc", "4242", "", "offset.token"},
            {STREAM.streamId(), "mssql_cdc", "0x20", "{not json", "offset.resume"},
        };
        long version = 100;
        for (String[] c : cases) {
            commitNext(STREAM, new CdcOffset("mssql_cdc", "0x10", true));
            ch.execute("INSERT INTO " + ClickHouseSql.table(db, "cdc_offsets") + " (checkpoint_key, schema, stream_id, "
                + "stream_json, backend, token, snapshot_complete, saved_at, saved_version, resume, writer) VALUES ("
                + String.join(", ", ClickHouseSql.literal(STREAM.pipelineName()),
                    ClickHouseSql.literal(ClickHouseOffsetStore.SCHEMA), ClickHouseSql.literal(c[0]),
                    ClickHouseSql.literal(io.dpone.cdc.CdcHashes.canonicalJson(STREAM.toMap())),
                    ClickHouseSql.literal(c[1]), ClickHouseSql.literal(c[2]), "1", "now64(3)",
                    Long.toString(Long.MAX_VALUE / 2 + version++), ClickHouseSql.literal(c[3]), "'hand-edit'") + ")");
            String rows = ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "cdc_offsets")).get(0).get(0);
            DponeException load = assertThrows(DponeException.class, () -> store().load(STREAM));
            assertEquals(CdcBlockers.CHECKPOINT_INVALID, load.blockers().get(0).code(), c[4]);
            assertEquals(c[4], load.blockers().get(0).details().get("field"));
            assertTrue(load.blockers().get(0).message().contains(c[4]));
            assertTrue(!load.blockers().get(0).message().contains("4242") && !load.blockers().get(0).message()
                .contains("not json") && !load.blockers().get(0).message().contains("0000"), c[4]);
            DponeException commit = assertThrows(DponeException.class, () -> store().commit(STREAM,
                Optional.of(new CdcOffset("mssql_cdc", "0x20", true)), new CdcOffset("mssql_cdc", "0x21", true), "w"));
            assertEquals(CdcBlockers.CHECKPOINT_INVALID, commit.blockers().get(0).code(), c[4]);
            assertEquals(rows, ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "cdc_offsets")).get(0).get(0));
            ch.execute("TRUNCATE TABLE " + ClickHouseSql.table(db, "cdc_offsets"));
        }
    }
}
