package io.dpone.route;

import io.dpone.source.RowCursor;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads source rows on its own thread in batches of {@value #BATCH}, handed over through a bounded queue (four
 * batches), so the JDBC driver's work and the encoding, hashing and spooling of the previous rows run on two cores
 * at once. Memory stays bounded by the queue. The reader's failure is rethrown to the consumer, in order.
 */
final class RowPrefetcher implements AutoCloseable {
    static final int BATCH = 2048;
    private static final Object[][] END = new Object[0][];

    private final BlockingQueue<Object[][]> batches = new ArrayBlockingQueue<>(4);
    private final RowCursor cursor;
    private final int columns;
    private volatile boolean cancelled;
    private volatile RuntimeException failure;
    private Thread thread;
    private Object[][] current;
    private int position;

    RowPrefetcher(RowCursor cursor, int columns) {
        this.cursor = cursor;
        this.columns = columns;
    }

    void start() {
        thread = new Thread(this::read, "dpone-source-fetch");
        thread.setDaemon(true);
        thread.start();
    }

    private void read() {
        try {
            while (!cancelled) {
                Object[][] batch = new Object[BATCH][];
                int n = 0;
                while (n < BATCH) {
                    Object[] row = new Object[columns];
                    if (!cursor.next(row)) {
                        break;
                    }
                    batch[n++] = row;
                }
                if (n > 0) {
                    put(n == BATCH ? batch : Arrays.copyOf(batch, n));
                }
                if (n < BATCH) {
                    break;
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            cursor.close();
            putEnd(); // after the failure is set, so the consumer sees it
        }
    }

    /**
     * END must reach the consumer even when the queue is full (encoding slower than reading is the normal case):
     * a dropped END would leave the consumer waiting forever. Once cancelled, nobody consumes: make room instead.
     */
    private void putEnd() {
        try {
            while (!batches.offer(END, 200, TimeUnit.MILLISECONDS)) {
                if (cancelled) {
                    batches.clear();
                }
            }
        } catch (InterruptedException e) {
            batches.clear();
            batches.offer(END);
            Thread.currentThread().interrupt();
        }
    }

    private void put(Object[][] batch) throws InterruptedException {
        while (!cancelled) {
            if (batches.offer(batch, 200, TimeUnit.MILLISECONDS)) {
                return;
            }
        }
    }

    /** The next row, or {@code null} at the end; rethrows the reader's failure. */
    Object[] next() throws InterruptedException {
        if (current == null || position == current.length) {
            current = batches.take();
            position = 0;
            if (current == END) {
                batches.offer(END); // stay at the end for repeated calls
                if (failure != null) {
                    throw failure;
                }
                return null;
            }
        }
        return current[position++];
    }

    @Override
    public void close() {
        cancelled = true;
        WorkerThreads.stop(thread);
    }
}
