package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.dpone.source.RowCursor;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The end of the source (or its failure) reaches a consumer that is slower than the reader. */
class RowPrefetcherTest {
    private static RowCursor rows(int n, RuntimeException failAtEnd) {
        return new RowCursor() {
            int i;

            @Override
            public boolean next(Object[] row) {
                if (i == n) {
                    if (failAtEnd != null) {
                        throw failAtEnd;
                    }
                    return false;
                }
                row[0] = (long) i++;
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
}
