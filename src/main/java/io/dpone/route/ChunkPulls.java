package io.dpone.route;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The object-storage routes' pulls, on their own thread ({@code dpone-chunk-puller}): the route thread hands over
 * each chunk as soon as it is uploaded ({@link #submit}) and goes on uploading the next one while ClickHouse pulls,
 * and the encoder goes on encoding the one after. Per chunk: one statement per chunk, by its key, in upload order, at
 * most {@link #MAX_WAITING} chunks uploaded and not pulled yet. {@code grouped}: one {@code INSERT ... SELECT} over a
 * glob of every chunk waiting, once they hold {@link #GROUP_ROWS} rows (or {@link #MAX_WAITING_GROUPED} chunks wait,
 * or the last chunk is in): on two cores a pull of 100k rows costs measurably more CPU per row than one of a million
 * (statement and gate-count overhead, bench/README.md), and that CPU is taken from the encoder.
 *
 * <p>Bounded: beyond the bound the route thread waits in {@link #submit}; the chunks waiting are objects in the
 * store, not memory. A failed pull fails the next {@link #submit} or {@link #finish} with its
 * exception; {@link #close} stops the thread (the run's resources close it, the failure handler before it drops
 * anything).
 */
final class ChunkPulls implements AutoCloseable {
    /** Uploaded chunks not pulled yet, the ones being pulled included (per-chunk pulls). */
    static final int MAX_WAITING = 4;
    /** Rows a grouped pull waits for before it starts (unless the bound is reached or the last chunk is in). */
    static final long GROUP_ROWS = 1_000_000;
    /** Uploaded chunks not pulled yet, the ones being pulled included (grouped pulls). */
    static final int MAX_WAITING_GROUPED = 16;

    /** An uploaded chunk waiting for its pull. */
    record Uploaded(Chunk chunk, String key) {
    }

    /** Pulls one batch of uploaded chunks (one statement); called on the pull thread only. */
    interface Puller {
        void pull(List<Uploaded> batch);
    }

    private final boolean grouped;
    private final long groupRows;
    private final int maxWaiting;
    private final Puller puller;
    private final WorkerThreads workers;
    private final Deque<Uploaded> waiting = new ArrayDeque<>();
    private int pulling;
    private boolean finished;
    private boolean closed;
    private RuntimeException failure;
    private WorkerThreads.Worker thread;

    ChunkPulls(boolean grouped, Puller puller, WorkerThreads workers) {
        this(grouped, grouped ? GROUP_ROWS : 0, grouped ? MAX_WAITING_GROUPED : MAX_WAITING, puller, workers);
    }

    /** With the group size and the bound given (tests). */
    ChunkPulls(boolean grouped, long groupRows, int maxWaiting, Puller puller, WorkerThreads workers) {
        if (maxWaiting < 1) {
            throw new IllegalArgumentException("maxWaiting must be >= 1");
        }
        this.grouped = grouped;
        this.groupRows = groupRows;
        this.maxWaiting = maxWaiting;
        this.puller = puller;
        this.workers = workers;
    }

    /** Queues an uploaded chunk for its pull; waits while the bound's chunks wait already. */
    synchronized void submit(Chunk chunk, String key) {
        if (finished || closed) {
            throw new IllegalStateException("the pulls are finished");
        }
        if (thread == null) {
            thread = workers.start("dpone-chunk-puller", this::run);
        }
        while (failure == null && waiting.size() + pulling >= maxWaiting) {
            await();
        }
        rethrow();
        waiting.add(new Uploaded(chunk, key));
        notifyAll();
    }

    /** No more chunks: waits until every submitted chunk is pulled, and rethrows a pull's failure. */
    synchronized void finish() {
        finished = true;
        notifyAll();
        while (failure == null && (!waiting.isEmpty() || pulling > 0)) {
            await();
        }
        rethrow();
    }

    private void run() {
        while (true) {
            List<Uploaded> batch = new ArrayList<>();
            synchronized (this) {
                while (!closed && !ready()) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return; // close()
                    }
                }
                if (waiting.isEmpty() || closed) {
                    return;
                }
                do {
                    batch.add(waiting.poll());
                } while (grouped && !waiting.isEmpty());
                pulling = batch.size();
            }
            try {
                puller.pull(batch);
            } catch (RuntimeException | Error e) {
                synchronized (this) {
                    failure = e instanceof RuntimeException r ? r
                        : new IllegalStateException("a pull failed: " + e, e);
                    pulling = 0;
                    waiting.clear();
                    notifyAll();
                }
                return;
            }
            synchronized (this) {
                pulling = 0;
                notifyAll();
            }
        }
    }

    /** Whether a pull should start now (under the lock). */
    private boolean ready() {
        if (waiting.isEmpty()) {
            return finished;
        }
        return !grouped || finished || waiting.size() >= maxWaiting
            || waiting.stream().mapToLong(u -> u.chunk().rows()).sum() >= groupRows;
    }

    private void await() {
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the pulls");
        }
    }

    private void rethrow() {
        if (failure != null) {
            throw failure;
        }
    }

    /** Stops the pull thread (a pull in progress is interrupted, and waited for within a bound). */
    @Override
    public void close() {
        WorkerThreads.Worker t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            waiting.clear();
            notifyAll();
            t = thread;
        }
        WorkerThreads.stop(t);
    }
}
