package io.dpone.cdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.DponeException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every {@link CdcSourceReader} does (its Javadoc made executable), over a table {@code dbo.orders} keyed by
 * {@code order_id} into which each {@link Source#insert} commits one row in its own transaction: the changes come
 * in change order ({@link CdcEvent#ORDER}); a batch never holds more than {@code maxEvents} changes (a reader may
 * refuse a larger batch with a typed blocker instead of cutting it); reading on from each batch's next offset
 * yields every change exactly once once the replays at or below the offset are dropped, as the idempotency service
 * drops them; the next offset is the position of the last change read. The events-JSON reader, the SQL Server CDC
 * and Change Tracking readers (on the H2 emulation) and the in-memory fake all pass it.
 */
public abstract class CdcSourceReaderContract {

    /** A change source of one table and its reader. */
    protected interface Source extends AutoCloseable {
        /** Commits one transaction that inserts the row with {@code key}. */
        void insert(int key) throws Exception;

        CdcSourceReader reader();

        @Override
        void close() throws Exception;
    }

    /** A new, empty source. */
    protected abstract Source open() throws Exception;

    /** The changes of {@code batch} after {@code from} (all of them for no offset): what the runtime applies. */
    static List<CdcEvent> newer(CdcBatch batch, CdcOffset from) {
        return batch.changes().stream()
            .filter(e -> from == null || CdcPosition.compare(e.position(), from.token()) > 0).toList();
    }

    static List<Integer> keys(List<CdcEvent> events) {
        return events.stream().map(e -> ((Number) e.data().get("order_id")).intValue()).toList();
    }

    @Test
    public void aSourceWithoutChangesGivesAnEmptyBatch() throws Exception {
        try (Source s = open()) {
            assertEquals(List.of(), s.reader().readBatch(null, 10).changes());
        }
    }

    @Test
    public void everyChangeComesInChangeOrderAndTheNextOffsetIsTheLastOne() throws Exception {
        try (Source s = open()) {
            for (int k = 1; k <= 5; k++) {
                s.insert(k);
            }
            CdcBatch batch = s.reader().readBatch(null, 100);
            assertEquals(List.of(1, 2, 3, 4, 5), keys(batch.changes()));
            assertTrue(batch.changes().stream().allMatch(e -> e.operation() == CdcOperation.insert));
            assertEquals(batch.changes().stream().sorted(CdcEvent.ORDER).toList(), batch.changes());
            assertEquals(0, CdcPosition.compare(batch.changes().get(4).position(), batch.nextOffset().token()),
                "the next offset is the last change's position");
        }
    }

    @Test
    public void aBatchNeverHoldsMoreThanMaxEventsAndReadingOnYieldsEveryChangeOnce() throws Exception {
        try (Source s = open()) {
            for (int k = 1; k <= 7; k++) {
                s.insert(k);
            }
            List<Integer> seen = new ArrayList<>();
            CdcOffset from = null;
            for (int reads = 0; reads < 20; reads++) {
                CdcBatch batch;
                try {
                    batch = s.reader().readBatch(from, 3);
                } catch (DponeException refused) { // a reader that cannot cut a batch refuses it, typed
                    assertFalse(refused.blockers().isEmpty());
                    assertTrue(refused.blockers().get(0).code().startsWith("cdc_runtime."),
                        refused.blockers().toString());
                    return;
                }
                assertTrue(batch.changes().size() <= 3, "batch of " + batch.changes().size());
                List<CdcEvent> fresh = newer(batch, from);
                if (fresh.isEmpty()) {
                    break;
                }
                seen.addAll(keys(fresh));
                from = batch.nextOffset();
            }
            assertEquals(List.of(1, 2, 3, 4, 5, 6, 7), seen);
        }
    }

    @Test
    public void changesCommittedAfterAReadAreReadFromItsOffsetAndNothingIsNewAtTheEnd() throws Exception {
        try (Source s = open()) {
            s.insert(1);
            s.insert(2);
            CdcBatch first = s.reader().readBatch(null, 100);
            assertEquals(List.of(1, 2), keys(newer(first, null)));
            assertEquals(List.of(), newer(s.reader().readBatch(first.nextOffset(), 100), first.nextOffset()));
            s.insert(3);
            s.insert(4);
            CdcBatch second = s.reader().readBatch(first.nextOffset(), 100);
            assertEquals(List.of(3, 4), keys(newer(second, first.nextOffset())));
            assertEquals(List.of(), newer(s.reader().readBatch(second.nextOffset(), 100), second.nextOffset()));
        }
    }
}
