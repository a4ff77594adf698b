package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpone.error.DponeException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What every {@link CdcSinkApplier} does: durable receipts, no duplicate rows on any re-apply, and text that is exact
 * or refused (a lone surrogate is {@code cdc_runtime.value_out_of_range} before anything is written).
 */
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
    void aLoneSurrogateInAValueOrANameIsRefusedTypedBeforeAnythingIsWritten() {
        CdcSinkApplier s = applier();
        CdcEvent exact = new CdcEvent(CdcOperation.insert, "0x10", 1, "dbo", "orders",
            Map.of("order_id", 1, "status", "a?b"), Map.of());
        for (Map<String, Object> data : List.<Map<String, Object>>of(Map.of("order_id", 2, "status", "a\ud800b"),
            Map.of("order_id", 2, "st\udc00atus", "new"), Map.of("order_id", 2, "status", "\ud83d"))) {
            CdcEvent lone = new CdcEvent(CdcOperation.insert, "0x11", 1, "dbo", "orders", data, Map.of());
            DponeException e = assertThrows(DponeException.class,
                () -> s.apply(STREAM, new CdcApplyBatch("b-lone", "run-1", List.of(exact, lone))));
            assertEquals(CdcBlockers.VALUE_OUT_OF_RANGE, e.blockers().get(0).code(), data.keySet().toString());
            assertEquals("changes[1].data." + ExactText.visible(data.keySet().stream()
                .filter(k -> !k.equals("order_id")).findFirst().orElseThrow()), e.blockers().get(0).subject());
            assertEquals(0, rowCount(), "nothing of the batch was applied, the exact change neither");
        }
        // a surrogate pair is exact text: applied as it is
        CdcEvent pair = new CdcEvent(CdcOperation.insert, "0x12", 1, "dbo", "orders",
            Map.of("order_id", 3, "status", "a\ud83d\ude00b"), Map.of());
        assertTrue(s.apply(STREAM, new CdcApplyBatch("b-pair", "run-1", List.of(pair))).passed());
        assertEquals(1, rowCount());
    }

    @Test
    void anEmptyBatchIsDurableAndWritesNothing() {
        SinkReceipt r = applier().apply(STREAM, new CdcApplyBatch("b0", "run-1", List.of()));
        assertTrue(r.passed() && r.durable());
        assertEquals(0, rowCount());
    }
}
