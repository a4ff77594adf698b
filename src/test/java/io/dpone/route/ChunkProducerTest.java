package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.format.RowBinaryFormat;
import io.dpone.manifest.TableRef;
import io.dpone.quality.SourceStatsCollector;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import io.dpone.source.types.IntegerType;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the producer answers the route's split: a chunk is handed over without waiting for the one after it. */
class ChunkProducerTest {
    private static final SourceTable TABLE = new SourceTable(new TableRef("dbo", "t"),
        List.of(new SourceColumn("id", "bigint", false, new IntegerType(64, false))), List.of("id"));

    @TempDir
    Path spool;

    /** {@code n} rows; before row {@code holdAt} it waits for {@code hold}; {@code failure} instead of the end. */
    private static RowCursor rows(int n, int holdAt, CountDownLatch hold, RuntimeException failure) {
        return new RowCursor() {
            int i;

            @Override
            public boolean next(Object[] row) {
                if (i == holdAt) {
                    try {
                        hold.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                if (i == n) {
                    if (failure != null) {
                        throw failure;
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

    private ChunkProducer producer(RowCursor cursor, int chunkRows) {
        return new ChunkProducer(List.of(cursor), TABLE, new RowBinaryFormat(), spool, chunkRows, null,
            new SourceStatsCollector(TABLE, 1, List.of()), n -> { }, WorkerThreads.standalone());
    }

    /** Runs {@code call} on another thread: a call that would wait for the held source fails here, not hangs. */
    private static <T> T answered(java.util.concurrent.Callable<T> call) throws Exception {
        CompletableFuture<T> f = CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        return f.get(60, TimeUnit.SECONDS);
    }

    @Test
    void aChunkIsHandedOverWhileTheNextOneIsStillBeingRead() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        // the reader hands rows over in batches of RowPrefetcher.BATCH (2048): the first batch makes the first
        // chunk (2000 rows) and the first 48 rows of the second, then the source holds
        try (ChunkProducer p = producer(rows(5000, RowPrefetcher.BATCH, hold, null), 2000)) {
            p.start();
            assertTrue(answered(p::hasNext));
            Chunk first = answered(p::next);
            assertEquals(2000, first.rows());
            assertTrue(answered(p::hasNext), "the next chunk has a row: hasNext() says so without waiting for it "
                + "to be complete (Camel's split asks before it loads the chunk it got)");
            hold.countDown();
            assertEquals(2000, p.next().rows());
            assertTrue(p.hasNext());
            assertEquals(1000, p.next().rows());
            assertFalse(p.hasNext());
            assertFalse(p.hasNext(), "the end stays the end");
            assertEquals(5000, p.stats().rows());
        }
    }

    @Test
    void hasNextWaitsForTheEndWhenNoRowFollows() throws Exception {
        try (ChunkProducer p = producer(rows(4000, -1, null, null), 2000)) {
            p.start();
            assertEquals(2000, p.next().rows());
            assertEquals(2000, p.next().rows());
            assertFalse(p.hasNext(), "a chunk boundary at the last row: no announced chunk, so the answer is the end");
            assertThrows(java.util.NoSuchElementException.class, p::next);
        }
    }

    @Test
    void aSourceFailureReachesTheRouteTyped() throws Exception {
        DponeException failure = new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.table", "gone");
        // the failure comes while the second batch is read, after the first made chunk 1 and began chunk 2 (a
        // failure replaces what is queued: the run ends with it)
        try (ChunkProducer p = producer(rows(RowPrefetcher.BATCH + 100, -1, null, failure), 2000)) {
            p.start();
            DponeException thrown = assertThrows(DponeException.class, () -> {
                while (p.hasNext()) {
                    p.next();
                }
            });
            assertEquals("source.read_failed", thrown.blockers().get(0).code());
        }
    }

    @Test
    void closingWhileAChunkIsAnnouncedEndsTheIteration() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        ChunkProducer p = producer(rows(5000, RowPrefetcher.BATCH, hold, null), 2000);
        p.start();
        assertEquals(2000, answered(p::next).rows());
        assertTrue(answered(p::hasNext));
        p.close(); // a failed run: the encoder is stopped before it completes the announced chunk
        hold.countDown();
        assertThrows(java.util.NoSuchElementException.class, p::next);
        assertFalse(p.hasNext());
    }
}
