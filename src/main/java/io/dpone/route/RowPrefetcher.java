package io.dpone.route;

import io.dpone.source.RowCursor;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads source rows on reader threads (one per cursor: one, or one per primary-key range) in batches of
 * {@value #BATCH}, handed over through one bounded queue ({@value #QUEUE} batches, shared by every reader), so the
 * JDBC driver's work and the encoding, hashing and spooling of the previous rows run on two cores at once. Memory
 * stays bounded by the queue plus one batch being filled per reader: more readers do not multiply the queue. The
 * end marker goes in after the last reader has finished; the first reader failure stops the others and is rethrown
 * to the consumer at the end.
 */
final class RowPrefetcher implements AutoCloseable {
    static final int BATCH = 2048;
    static final int QUEUE = 4;
    private static final Object[][] END = new Object[0][];

    private final BlockingQueue<Object[][]> batches = new ArrayBlockingQueue<>(QUEUE);
    private final List<RowCursor> cursors;
    private final int columns;
    private final AtomicInteger running;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private volatile boolean cancelled;
    private final WorkerThreads workers;
    private WorkerThreads.Worker[] threads = new WorkerThreads.Worker[0];
    private Object[][] current;
    private int position;

    RowPrefetcher(RowCursor cursor, int columns) {
        this(List.of(cursor), columns, WorkerThreads.standalone());
    }

    RowPrefetcher(List<RowCursor> cursors, int columns) {
        this(cursors, columns, WorkerThreads.standalone());
    }

    RowPrefetcher(List<RowCursor> cursors, int columns, WorkerThreads workers) {
        if (cursors.isEmpty()) {
            throw new IllegalArgumentException("no cursor");
        }
        this.cursors = List.copyOf(cursors);
        this.columns = columns;
        this.running = new AtomicInteger(cursors.size());
        this.workers = workers;
    }

    synchronized void start() {
        if (cancelled || threads.length > 0) {
            return; // closed before it started (its cursors are closed), or already reading
        }
        threads = new WorkerThreads.Worker[cursors.size()];
        for (int i = 0; i < threads.length; i++) {
            RowCursor cursor = cursors.get(i);
            threads[i] = workers.start("dpone-source-fetch" + (threads.length > 1 ? "-" + i : ""), () -> read(cursor));
        }
    }

    private void read(RowCursor cursor) {
        try {
            while (!cancelled && failure.get() == null) {
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
            failure.compareAndSet(null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (!cancelled) { // not our close: never let an interrupted reader pass for the end of its range
                failure.compareAndSet(null, new IllegalStateException("the source reader was interrupted"));
            }
        } finally {
            cursor.close();
            // the last reader to finish ends the stream; a failure ends it at once (the other readers stop)
            if (running.decrementAndGet() == 0 || failure.get() != null) {
                putEnd(); // after the failure is set, so the consumer sees it
            }
        }
    }

    /**
     * END must reach the consumer even when the queue is full (encoding slower than reading is the normal case):
     * a dropped END would leave the consumer waiting forever. Once cancelled, nobody consumes: make room instead.
     */
    private void putEnd() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
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
        while (!cancelled && failure.get() == null) {
            if (batches.offer(batch, 200, TimeUnit.MILLISECONDS)) {
                return;
            }
        }
    }

    /** The next row, or {@code null} at the end; rethrows the (first) reader failure. */
    Object[] next() throws InterruptedException {
        if (current == null || position == current.length) {
            current = batches.take();
            position = 0;
            if (current == END) {
                batches.offer(END); // stay at the end for repeated calls
                RuntimeException f = failure.get();
                if (f != null) {
                    throw f;
                }
                return null;
            }
        }
        return current[position++];
    }

    /** Stops the readers (each closes its cursor); a prefetcher that never started closes its cursors here. */
    @Override
    public void close() {
        WorkerThreads.Worker[] started;
        synchronized (this) {
            boolean first = !cancelled;
            cancelled = true;
            started = threads;
            if (first && started.length == 0) {
                cursors.forEach(RowCursor::close);
            }
        }
        WorkerThreads.stop(started);
    }
}
