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
import io.dpone.cdc.CdcPosition;
import io.dpone.error.DponeException;
import io.dpone.testing.TestEngines;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SqlServerCdcReaderTest {
    H2CdcFixture fx;
    SqlServerCdcReader reader;

    @BeforeEach
    void setUp() throws Exception {
        fx = new H2CdcFixture(TestEngines.newH2Url());
        reader = new SqlServerCdcReader(fx.connection, LiveReads.CDC, H2CdcFixture.CAPTURE_INSTANCE);
    }

    @AfterEach
    void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void ordersByLsnThenCommandIdThenSeqvalNeverBySeqvalAlone() throws Exception {
        byte[] a = fx.txn().seqvals(50, 70).insert(row(1, "new", "1.00", null, null))
            .insert(row(2, "new", "2.00", null, null)).commit();
        // committed later (higher LSN) but its changes were logged between the first transaction's
        byte[] b = fx.txn().seqvals(55, 60).insert(row(3, "new", "3.00", null, null))
            .insert(row(4, "new", "4.00", null, null)).commit();
        // command order disagrees with seqval order inside one LSN: __$command_id wins
        byte[] c = fx.txn().seqvals(90, 80).insert(row(5, "new", "5.00", null, null))
            .insert(row(6, "new", "6.00", null, null)).commit();
        CdcBatch batch = reader.readBatch(null, 100);
        assertEquals(List.of("insert:1", "insert:2", "insert:3", "insert:4", "insert:5", "insert:6"),
            LiveReads.ops(batch.changes()));
        List<String> positions = batch.changes().stream().map(CdcEvent::position).toList();
        String pa = new Lsn(new java.math.BigInteger(1, a)).hex();
        String pb = new Lsn(new java.math.BigInteger(1, b)).hex();
        String pc = new Lsn(new java.math.BigInteger(1, c)).hex();
        assertEquals(List.of(pa, pa, pb, pb, pc, pc), positions);
        assertEquals(List.of(0L, 1L, 0L, 1L, 0L, 1L), batch.changes().stream().map(CdcEvent::sequence).toList());
        assertEquals(batch.changes(), batch.changes().stream().sorted(CdcEvent.ORDER).toList(),
            "the reader's order is the runtime's change order");
        assertEquals(pc, batch.nextOffset().token());
        assertNull(batch.nextOffset().resume());
    }

    @Test
    void updatesCarryBeforeAndAfterImagesAndAKeyUpdateIsADeleteAndAnInsertAtOneLsn() throws Exception {
        fx.txn().insert(row(1, "new", "10.00", null, null)).commit();
        fx.txn().update(row(1, "new", "10.00", null, null), row(1, "paid", "10.00", null, null)).commit();
        fx.txn().updateKey(row(1, "paid", "10.00", null, null), row(2, "paid", "10.00", null, null)).commit();
        fx.txn().delete(row(2, "paid", "10.00", null, null)).commit();
        fx.txn().insert(row(2, "again", "12.50", null, null)).commit();
        List<CdcEvent> events = reader.readBatch(null, 100).changes();
        assertEquals(List.of("insert:1", "update_before:1", "update_after:1", "delete:1", "insert:2", "delete:2",
            "insert:2"), LiveReads.ops(events));
        assertEquals("new", events.get(1).data().get("status"));
        assertEquals("paid", events.get(2).data().get("status"));
        assertEquals(events.get(1).position(), events.get(2).position());
        assertEquals(events.get(3).position(), events.get(4).position(), "PK update: one LSN");
        assertTrue(events.get(3).version().compareTo(events.get(4).version()) < 0);
        assertEquals(SqlServerCdcReader.BACKEND, events.get(0).metadata().get("backend"));
    }

    @Test
    void payloadValuesAreTypedByTheSnapshotTypeMapping() throws Exception {
        fx.txn().insert(row(7, "Grüße 😀 ok", "19.90", "ünïcödé", "2024-05-06T07:08:09.1234567")).commit();
        CdcEvent e = reader.readBatch(null, 10).changes().get(0);
        assertEquals(7L, e.data().get("order_id"));
        assertEquals(new BigDecimal("19.90"), e.data().get("amount"));
        assertEquals(2, ((BigDecimal) e.data().get("amount")).scale());
        assertEquals("Grüße 😀 ok", e.data().get("status"));
        assertEquals(LocalDateTime.parse("2024-05-06T07:08:09.1234567"), e.data().get("updated_at"));
    }

    @Test
    void aBatchBoundaryInsideOneLargeTransactionResumesExactlyAtEverySize() throws Exception {
        H2CdcFixture.Txn big = fx.txn();
        for (int i = 1; i <= 9; i++) {
            big.insert(row(i, "new", i + ".00", null, null));
        }
        big.update(row(3, "new", "3.00", null, null), row(3, "paid", "3.00", null, null));
        big.updateKey(row(4, "new", "4.00", null, null), row(40, "new", "4.00", null, null));
        byte[] bigLsn = big.commit();
        fx.txn().insert(row(10, "new", "10.00", null, null)).commit();
        List<CdcEvent> all = reader.readBatch(null, 1000).changes();
        assertEquals(14, all.size());
        for (int size = 1; size <= 6; size++) {
            LiveReads.Drain d = LiveReads.drain(reader, null, size);
            assertEquals(all, d.events(), "batch size " + size);
            Set<String> ids = new HashSet<>();
            for (CdcEvent e : d.events()) {
                assertTrue(ids.add(e.position() + "/" + e.sequence() + "/" + e.operation()), "duplicate at " + size);
            }
            CdcOffset mid = d.offsets().get(0);
            assertNotNull(mid.resume(), "the first batch ends inside the big transaction");
            assertEquals(new Lsn(new java.math.BigInteger(1, bigLsn)).previous().value(),
                CdcPosition.of(mid.token()).value());
            assertNull(d.last().resume());
        }
    }

    @Test
    void aCheckpointBelowTheMinimumLsnBlocksWithAResyncInsteadOfSkipping() throws Exception {
        fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
        CdcOffset committed = reader.readBatch(null, 10).nextOffset();
        fx.txn().insert(row(2, "new", "2.00", null, null)).commit();
        byte[] third = fx.txn().insert(row(3, "new", "3.00", null, null)).commit();
        fx.cleanupBelow(third);
        DponeException e = assertThrows(DponeException.class, () -> reader.readBatch(committed, 10));
        assertEquals(CdcBlockers.CDC_RESYNC_REQUIRED, e.blockers().get(0).code());
        String message = e.blockers().get(0).message();
        assertTrue(message.contains("dpone run MANIFEST --run-id NEW_RUN_ID") && message.contains("orders"), message);
        assertNotNull(e.blockers().get(0).details().get("cleaned_up_before"), "the server dates what was lost");
        // a resume point inside a cleaned-up LSN blocks as well
        CdcOffset inside = new CdcOffset(SqlServerCdcReader.BACKEND, committed.token(), false,
            new CdcResumePoint(Lsn.parse(committed.token()), 1, new byte[10], 2, 0).toJson());
        assertEquals(CdcBlockers.CDC_RESYNC_REQUIRED, assertThrows(DponeException.class,
            () -> reader.readBatch(inside, 10)).blockers().get(0).code());
    }

    @Test
    void anIdleStreamMovesToMaxLsnAndThenHasNothingToCommit() throws Exception {
        fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
        CdcBatch first = reader.readBatch(null, 10);
        CdcBatch idle = reader.readBatch(first.nextOffset(), 10);
        assertTrue(idle.changes().isEmpty());
        assertNull(idle.nextOffset(), "nothing new: nothing to commit");
    }

    @Test
    void aMissingCaptureInstanceIsTyped() throws Exception {
        fx.disable();
        assertEquals(CdcBlockers.SOURCE_NOT_ENABLED, assertThrows(DponeException.class,
            () -> reader.readBatch(null, 10)).blockers().get(0).code());
        SqlServerCdcReader other = new SqlServerCdcReader(fx.connection, LiveReads.CDC, "dbo_nothing");
        assertEquals(CdcBlockers.SOURCE_NOT_ENABLED, assertThrows(DponeException.class,
            () -> other.readBatch(null, 10)).blockers().get(0).code());
    }

    @Test
    void aResumePointTheReaderDidNotWriteIsACheckpointError() {
        CdcOffset bad = new CdcOffset(SqlServerCdcReader.BACKEND, "0x10", false, "{\"lsn\":1}");
        assertEquals(CdcBlockers.CHECKPOINT_INVALID, assertThrows(DponeException.class,
            () -> reader.readBatch(bad, 10)).blockers().get(0).code());
    }
}
