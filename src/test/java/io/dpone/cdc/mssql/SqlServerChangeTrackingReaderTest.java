package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2CdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOffset;
import io.dpone.error.DponeException;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SqlServerChangeTrackingReaderTest {
    H2ChangeTrackingFixture fx;
    SqlServerChangeTrackingReader reader;

    @BeforeEach
    void setUp() throws Exception {
        fx = new H2ChangeTrackingFixture(TestEngines.newH2Url());
        reader = new SqlServerChangeTrackingReader(fx.connection, LiveReads.CT, H2ChangeTrackingFixture.DIALECT);
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void productionSqlIsChangetableChangesWithTheVersionAsAParameter() {
        assertEquals("CHANGETABLE(CHANGES [dbo].[orders], ?)",
            new SqlServerChangeTrackingSql().changesSince("dbo", "orders"));
        assertThrows(IllegalArgumentException.class,
            () -> new SqlServerChangeTrackingSql().changesSince("dbo", "orders]; DROP TABLE x; --"));
    }

    @Test
    void netChangesByVersionWithCurrentValuesAndKeyOnlyDeletes() throws Exception {
        fx.insert(row(1, "new", "10.00", null, null));
        fx.insert(row(2, "new", "20.00", null, null));
        CdcBatch first = reader.readBatch(null, 100);
        assertEquals(List.of("insert:1", "insert:2"), LiveReads.ops(first.changes()));
        assertEquals("2", first.nextOffset().token());
        fx.update(row(1, "paid", "10.50", "ok", null));
        fx.delete(2);
        CdcBatch second = reader.readBatch(first.nextOffset(), 100);
        assertEquals(List.of("update:1", "delete:2"), LiveReads.ops(second.changes()));
        CdcEvent update = second.changes().get(0);
        assertEquals("3", update.position());
        assertEquals(new BigDecimal("10.50"), update.data().get("amount"));
        assertEquals("paid", update.data().get("status"));
        assertEquals(Map.of("order_id", 2L), second.changes().get(1).data());
        assertEquals("4", second.nextOffset().token());
        CdcBatch idle = reader.readBatch(second.nextOffset(), 100);
        assertTrue(idle.changes().isEmpty());
        assertNull(idle.nextOffset());
    }

    @Test
    void anInsertWhoseRowIsGoneWhenReadIsAKeyOnlyDeleteMarkedRowMissing() throws Exception {
        fx.insert(row(1, "new", "10.00", null, null));
        fx.insert(row(2, "new", "20.00", null, null));
        // the row goes between the change table's read and the join (emulated: gone without a tracked delete)
        try (java.sql.Statement st = fx.connection.createStatement()) {
            st.executeUpdate("DELETE FROM dbo.orders WHERE order_id = 1");
        }
        CdcBatch batch = reader.readBatch(null, 100);
        assertEquals(List.of("delete:1", "insert:2"), LiveReads.ops(batch.changes()));
        CdcEvent missing = batch.changes().get(0);
        assertEquals(Map.of("order_id", 1L), missing.data(), "a delete carries the key only");
        assertEquals(Map.of("backend", SqlServerChangeTrackingReader.BACKEND, "row_missing", true),
            missing.metadata());
        CdcEvent present = batch.changes().get(1);
        assertEquals(List.of("order_id", "status", "amount", "note", "updated_at"),
            List.copyOf(present.data().keySet()));
        assertEquals(Map.of("backend", SqlServerChangeTrackingReader.BACKEND), present.metadata());
    }

    @Test
    void aBatchBoundaryInsideOneVersionResumesByKeyAtEverySize() throws Exception {
        fx.begin();
        for (int i = 1; i <= 9; i++) {
            fx.insert(row(i * 3 % 10, "new", i + ".00", null, null));
        }
        fx.commit();
        fx.insert(row(20, "new", "20.00", null, null));
        List<CdcEvent> all = reader.readBatch(null, 1000).changes();
        assertEquals(10, all.size());
        for (int size = 1; size <= 4; size++) {
            LiveReads.Drain d = LiveReads.drain(reader, null, size);
            assertEquals(all, d.events(), "batch size " + size);
            assertNotNull(d.offsets().get(0).resume());
            assertEquals("0", d.offsets().get(0).token());
            assertEquals("2", d.last().token());
        }
        // a key that changes again after the boundary is read again at its new version, never lost
        CdcOffset mid = reader.readBatch(null, 2).nextOffset();
        fx.update(row(3, "paid", "1.00", null, null));
        LiveReads.Drain rest = LiveReads.drain(reader, mid, 2);
        assertEquals(List.of("insert:4", "insert:5", "insert:6", "insert:7", "insert:8", "insert:9", "insert:20",
            "update:3"), LiveReads.ops(rest.events()));
    }

    @Test
    void aSavedVersionBelowTheMinimumValidVersionBlocksWithAResync() throws Exception {
        fx.insert(row(1, "new", "1.00", null, null));
        CdcOffset committed = reader.readBatch(null, 10).nextOffset();
        fx.insert(row(2, "new", "2.00", null, null));
        fx.insert(row(3, "new", "3.00", null, null));
        fx.cleanup(2);
        DponeException e = assertThrows(DponeException.class, () -> reader.readBatch(committed, 10));
        assertEquals(CdcBlockers.CHANGE_TRACKING_RESYNC_REQUIRED, e.blockers().get(0).code());
        assertTrue(e.blockers().get(0).message().contains("dpone run MANIFEST --run-id NEW_RUN_ID"),
            e.blockers().get(0).message());
        long saved = Long.parseLong(committed.token());
        assertEquals(((Number) e.blockers().get(0).details().get("min_valid_version")).longValue() - 1 - saved,
            ((Number) e.blockers().get(0).details().get("versions_cleaned_up")).longValue());
    }

    @Test
    void aTableWithoutChangeTrackingOrWithOtherKeysIsTyped() throws Exception {
        SqlServerChangeTrackingReader wrongKey = new SqlServerChangeTrackingReader(fx.connection,
            new io.dpone.cdc.StreamIdentity("p", SqlServerChangeTrackingReader.BACKEND, "dbo", "orders", "a.b",
                List.of("status")), H2ChangeTrackingFixture.DIALECT);
        assertEquals(CdcBlockers.INVALID_ARGUMENT, assertThrows(DponeException.class,
            () -> wrongKey.readBatch(null, 10)).blockers().get(0).code());
        // the same mismatch on a stream that has a checkpoint: the key changed at the source
        SqlServerChangeTrackingReader changedKey = new SqlServerChangeTrackingReader(fx.connection,
            new io.dpone.cdc.StreamIdentity("p", SqlServerChangeTrackingReader.BACKEND, "dbo", "orders", "a.b",
                List.of("status")), H2ChangeTrackingFixture.DIALECT);
        DponeException changed = assertThrows(DponeException.class, () -> changedKey.readBatch(
            new io.dpone.cdc.CdcOffset(SqlServerChangeTrackingReader.BACKEND, "0", true), 10));
        assertEquals(CdcBlockers.SCHEMA_CHANGED, changed.blockers().get(0).code());
        assertEquals("source.columns.order_id", changed.blockers().get(0).subject());
        fx.disable();
        assertEquals(CdcBlockers.SOURCE_NOT_ENABLED, assertThrows(DponeException.class,
            () -> reader.readBatch(null, 10)).blockers().get(0).code());
    }
}
