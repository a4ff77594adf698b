package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.DponeException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What every {@link CdcOffsetStore} does. */
abstract class CdcOffsetStoreContract {
    static final StreamIdentity STREAM = CdcIdentityTest.STREAM;
    static final StreamIdentity OTHER = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id", "region"));

    abstract CdcOffsetStore store();

    /** Commits {@code next} on top of whatever the store holds now (a tick that loaded just before). */
    static void commitNext(CdcOffsetStore s, StreamIdentity stream, CdcOffset next) {
        s.commit(stream, s.load(stream), next, "test-writer");
    }

    @Test
    void aCommitOnAnOffsetThatMovedSinceItWasLoadedIsAConflictAndChangesNothing() {
        CdcOffsetStore s = store();
        Optional<CdcOffset> loadedByBoth = s.load(STREAM);
        s.commit(STREAM, loadedByBoth, new CdcOffset("mssql_cdc", "0x14", true), "first");
        DponeException late = assertThrows(DponeException.class,
            () -> s.commit(STREAM, loadedByBoth, new CdcOffset("mssql_cdc", "0x15", true), "second"));
        assertEquals(CdcBlockers.OFFSET_CONFLICT, late.blockers().get(0).code());
        assertEquals("0x14", s.load(STREAM).orElseThrow().token());
        Optional<CdcOffset> now = s.load(STREAM);
        DponeException stale = assertThrows(DponeException.class, () -> s.commit(STREAM,
            Optional.of(new CdcOffset("mssql_cdc", "0x13", true)), new CdcOffset("mssql_cdc", "0x16", true), "third"));
        assertEquals(CdcBlockers.OFFSET_CONFLICT, stale.blockers().get(0).code());
        assertEquals(now, s.load(STREAM));
    }

    @Test
    void emptyUntilTheFirstSaveThenTheLastSave() {
        CdcOffsetStore s = store();
        assertEquals(Optional.empty(), s.load(STREAM));
        commitNext(s, STREAM, new CdcOffset("mssql_cdc", "0x14", true));
        commitNext(s, STREAM, new CdcOffset("mssql_cdc", "0x100", false));
        assertEquals(Optional.of(new CdcOffset("mssql_cdc", "0x100", false)), s.load(STREAM));
    }

    @Test
    void aResumePointRoundTripsAndIsClearedByTheNextSave() {
        CdcOffsetStore s = store();
        String resume = "{\"lsn\":\"0x0000002a000001f80003\",\"command_id\":7,\"note\":\"it's\"}";
        commitNext(s, STREAM, new CdcOffset("mssql_cdc", "0x2a000001f80002", false, resume));
        assertEquals(Optional.of(new CdcOffset("mssql_cdc", "0x2a000001f80002", false, resume)), s.load(STREAM));
        commitNext(s, STREAM, new CdcOffset("mssql_cdc", "0x2a000001f80003", false));
        assertEquals(Optional.of(new CdcOffset("mssql_cdc", "0x2a000001f80003", false, null)), s.load(STREAM));
    }

    @Test
    void theCaptureInstanceRoundTripsAndAnOffsetWithoutOneReadsAsTheConfiguredInstance() {
        CdcOffsetStore s = store();
        commitNext(s, STREAM, new CdcOffset("mssql_cdc", "0x2a000001f80002", true));
        assertEquals(null, s.load(STREAM).orElseThrow().captureInstance());
        CdcOffset handedOver = new CdcOffset("mssql_cdc", "0x2a000001f80003", true, null, "dbo_orders_v2");
        commitNext(s, STREAM, handedOver);
        assertEquals(Optional.of(handedOver), s.load(STREAM));
    }

    @Test
    void anotherStreamsCheckpointIsRefused() {
        CdcOffsetStore s = store();
        commitNext(s, STREAM, new CdcOffset("mssql_cdc", "0x14", true));
        DponeException load = assertThrows(DponeException.class, () -> s.load(OTHER));
        assertEquals(CdcBlockers.CHECKPOINT_STREAM_MISMATCH, load.blockers().get(0).code());
        DponeException save = assertThrows(DponeException.class,
            () -> commitNext(s, OTHER, new CdcOffset("mssql_cdc", "0x15", true)));
        assertEquals(CdcBlockers.CHECKPOINT_STREAM_MISMATCH, save.blockers().get(0).code());
        assertTrue(s.load(STREAM).isPresent());
        assertEquals("0x14", s.load(STREAM).get().token());
    }
}
