package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.dpone.source.RowCursor;
import io.dpone.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The end of the source (or its failure) reaches a consumer that is slower than the reader. */
class RowPrefetcherTest {
    private static RowCursor rows(int n, RuntimeException failAtEnd) {
        return rows(0, n, failAtEnd);
    }

    private static RowCursor rows(long first, int n, RuntimeException failAtEnd) {
        return rows(first, n, failAtEnd, new AtomicLong());
    }

    /** As {@link #rows(long, int, RuntimeException)}, counting every row it hands out in {@code read}. */
    private static RowCursor rows(long first, int n, RuntimeException failAtEnd, AtomicLong read) {
        return new RowCursor() {
            long i = first;

            @Override
            public boolean next(Object[] row) {
                if (i == first + n) {
                    if (failAtEnd != null) {
                        throw failAtEnd;
                    }
                    return false;
                }
                row[0] = i++;
                read.incrementAndGet();
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * Until the readers are ahead of the consumer (which takes nothing yet) by the queue's batches and one more batch
     * per extra busy reader, and a row: a reader reads a row of its next batch only once the one before is queued,
     * so one reader has then filled the queue and waits to hand over the next batch; several have queued or hold
     * every batch they read. This replaces a sleep: the readers are where the test wants them, however slow the
     * machine.
     */
    private static void awaitFullQueue(AtomicLong read, int busyReaders) {
        long rows = (long) (RowPrefetcher.QUEUE + busyReaders - 1) * RowPrefetcher.BATCH + 1;
        Await.until(Duration.ofSeconds(20), "the reader(s) to fill the queue", () -> read.get() >= rows);
    }

    @Test
    void aSlowConsumerWithAFullQueueStillSeesTheEnd() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            AtomicLong read = new AtomicLong();
            try (RowPrefetcher p = new RowPrefetcher(rows(0, RowPrefetcher.BATCH * 12 + 7, null, read), 1)) {
                p.start();
                awaitFullQueue(read, 1);
                long count = 0;
                while (p.next() != null) {
                    count++;
                }
                assertEquals(RowPrefetcher.BATCH * 12L + 7, count);
            }
        });
    }

    @Test
    void aReaderFailureAfterAFullQueueReachesTheConsumer() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            AtomicLong read = new AtomicLong();
            try (RowPrefetcher p = new RowPrefetcher(rows(0, RowPrefetcher.BATCH * 12, new IllegalStateException("x"),
                    read), 1)) {
                p.start();
                awaitFullQueue(read, 1);
                assertThrows(IllegalStateException.class, () -> {
                    while (p.next() != null) {
                        // drain
                    }
                });
            }
        });
    }

    @Test
    void severalReadersShareOneQueueAndEveryRowArrivesOnce() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            int per = RowPrefetcher.BATCH * 5 + 3;
            AtomicLong read = new AtomicLong();
            List<RowCursor> cursors = List.of(rows(0, per, null, read), rows(per, per, null, read),
                rows(2L * per, 1, null, read), rows(2L * per + 1, 0, null, read));
            try (RowPrefetcher p = new RowPrefetcher(cursors, 1)) {
                p.start();
                // the readers fill the shared queue and wait: it is not multiplied by readers
                awaitFullQueue(read, 2);
                java.util.BitSet seen = new java.util.BitSet();
                long count = 0;
                for (Object[] row; (row = p.next()) != null; count++) {
                    int k = (int) (long) (Long) row[0];
                    assertEquals(false, seen.get(k), "row " + k + " read twice");
                    seen.set(k);
                }
                assertEquals(2L * per + 1, count);
                assertEquals(2 * per + 1, seen.cardinality());
                assertEquals(null, p.next(), "stays at the end");
            }
        });
    }

    @Test
    void oneReaderFailingEndsTheStreamWithItsFailure() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            IllegalStateException boom = new IllegalStateException("boom");
            List<AtomicLong> read = List.of(new AtomicLong(), new AtomicLong(), new AtomicLong());
            List<RowCursor> cursors = List.of(rows(0, RowPrefetcher.BATCH * 50, null, read.get(0)),
                rows(1_000_000, RowPrefetcher.BATCH * 3, boom, read.get(1)),
                rows(2_000_000, RowPrefetcher.BATCH * 50, null, read.get(2)));
            try (RowPrefetcher p = new RowPrefetcher(cursors, 1)) {
                p.start();
                // no wait for a full queue first: which readers get to run before it fills is the scheduler's
                // choice (a reader that never ran kept the former wait from ending); draining is what must end in
                // the failure, whichever rows came before it
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
                    while (p.next() != null) {
                        // drain
                    }
                });
                assertSame(boom, e);
            }
        });
    }

    @Test
    void anInterruptThatIsNotACloseIsAFailureNotAShortStream() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            RowCursor interruptedMidway = new RowCursor() {
                long i;

                @Override
                public boolean next(Object[] row) {
                    if (i == RowPrefetcher.BATCH * 2L) {
                        Thread.currentThread().interrupt(); // e.g. a driver or pool interrupting the reader
                    }
                    if (i == RowPrefetcher.BATCH * 10L) {
                        return false;
                    }
                    row[0] = i++;
                    return true;
                }

                @Override
                public void close() {
                }
            };
            try (RowPrefetcher p = new RowPrefetcher(List.of(interruptedMidway, rows(1_000_000, 5, null)), 1)) {
                p.start();
                assertThrows(IllegalStateException.class, () -> {
                    while (p.next() != null) {
                        // drain
                    }
                });
            }
        });
    }
}
