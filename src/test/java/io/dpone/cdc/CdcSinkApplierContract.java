package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link CdcSinkApplier} does: durable receipts, and no duplicate rows on any re-apply. */
abstract class CdcSinkApplierContract {
    static final StreamIdentity STREAM = CdcIdentityTest.STREAM;
    static final List<CdcEvent> EVENTS = List.of(CdcIdentityTest.event(CdcOperation.insert, "0x10", 1, 1),
        CdcIdentityTest.event(CdcOperation.update, "0x11", 1, 1));

    abstract CdcSinkApplier applier();

    abstract int rowCount();

    @Test
    void appliesDurablyAndReappliesNothing() {
        CdcSinkApplier s = applier();
        SinkReceipt first = s.apply(STREAM, new CdcApplyBatch("b1", "run-1", EVENTS));
        assertTrue(first.passed() && first.durable());
        assertEquals(2, first.appliedRows());
        SinkReceipt again = s.apply(STREAM, new CdcApplyBatch("b1", "run-2", EVENTS));
        assertTrue(again.passed() && again.durable());
        assertTrue(again.batchAlreadyApplied());
        assertEquals(0, again.appliedRows());
        assertEquals(2, again.alreadyPresentRows());
        assertEquals(2, rowCount());
    }

    @Test
    void anOverlappingBatchAddsOnlyNewEvents() {
        CdcSinkApplier s = applier();
        s.apply(STREAM, new CdcApplyBatch("b1", "run-1", EVENTS.subList(0, 1)));
        SinkReceipt r = s.apply(STREAM, new CdcApplyBatch("b2", "run-2", EVENTS));
        assertEquals(1, r.appliedRows());
        assertEquals(1, r.alreadyPresentRows());
        assertEquals(2, rowCount());
    }

    @Test
    void anEmptyBatchIsDurableAndWritesNothing() {
        SinkReceipt r = applier().apply(STREAM, new CdcApplyBatch("b0", "run-1", List.of()));
        assertTrue(r.passed() && r.durable());
        assertEquals(0, rowCount());
    }
}
