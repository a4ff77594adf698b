package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.dpone.source.RowCursor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The end of the source (or its failure) reaches a consumer that is slower than the reader. */
class RowPrefetcherTest {
    private static RowCursor rows(int n, RuntimeException failAtEnd) {
        return rows(0, n, failAtEnd);
    }

    private static RowCursor rows(long first, int n, RuntimeException failAtEnd) {
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
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void aSlowConsumerWithAFullQueueStillSeesTheEnd() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (RowPrefetcher p = new RowPrefetcher(rows(RowPrefetcher.BATCH * 12 + 7, null), 1)) {
                p.start();
                Thread.sleep(500); // let the reader fill the queue and finish
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
            try (RowPrefetcher p = new RowPrefetcher(rows(RowPrefetcher.BATCH * 12, new IllegalStateException("x")), 1)) {
                p.start();
                Thread.sleep(500);
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
            List<RowCursor> cursors = List.of(rows(0, per, null), rows(per, per, null), rows(2L * per, 1, null),
                rows(2L * per + 1, 0, null));
            try (RowPrefetcher p = new RowPrefetcher(cursors, 1)) {
                p.start();
                Thread.sleep(500); // the readers fill the shared queue and wait: it is not multiplied by readers
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
            List<RowCursor> cursors = List.of(rows(0, RowPrefetcher.BATCH * 50, null),
                rows(1_000_000, RowPrefetcher.BATCH * 3, boom), rows(2_000_000, RowPrefetcher.BATCH * 50, null));
            try (RowPrefetcher p = new RowPrefetcher(cursors, 1)) {
                p.start();
                Thread.sleep(300);
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
