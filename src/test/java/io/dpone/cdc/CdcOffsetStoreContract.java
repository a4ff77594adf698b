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

    @Test
    void emptyUntilTheFirstSaveThenTheLastSave() {
        CdcOffsetStore s = store();
        assertEquals(Optional.empty(), s.load(STREAM));
        s.save(STREAM, new CdcOffset("mssql_cdc", "0x14", true));
        s.save(STREAM, new CdcOffset("mssql_cdc", "0x100", false));
        assertEquals(Optional.of(new CdcOffset("mssql_cdc", "0x100", false)), s.load(STREAM));
    }

    @Test
    void aResumePointRoundTripsAndIsClearedByTheNextSave() {
        CdcOffsetStore s = store();
        String resume = "{\"lsn\":\"0x0000002a000001f80003\",\"command_id\":7,\"note\":\"it's\"}";
        s.save(STREAM, new CdcOffset("mssql_cdc", "0x2a000001f80002", false, resume));
        assertEquals(Optional.of(new CdcOffset("mssql_cdc", "0x2a000001f80002", false, resume)), s.load(STREAM));
        s.save(STREAM, new CdcOffset("mssql_cdc", "0x2a000001f80003", false));
        assertEquals(Optional.of(new CdcOffset("mssql_cdc", "0x2a000001f80003", false, null)), s.load(STREAM));
    }

    @Test
    void anotherStreamsCheckpointIsRefused() {
        CdcOffsetStore s = store();
        s.save(STREAM, new CdcOffset("mssql_cdc", "0x14", true));
        DponeException load = assertThrows(DponeException.class, () -> s.load(OTHER));
        assertEquals(CdcBlockers.CHECKPOINT_STREAM_MISMATCH, load.blockers().get(0).code());
        DponeException save = assertThrows(DponeException.class,
            () -> s.save(OTHER, new CdcOffset("mssql_cdc", "0x15", true)));
        assertEquals(CdcBlockers.CHECKPOINT_STREAM_MISMATCH, save.blockers().get(0).code());
        assertTrue(s.load(STREAM).isPresent());
        assertEquals("0x14", s.load(STREAM).get().token());
    }
}
