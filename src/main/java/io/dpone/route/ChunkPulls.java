package io.dpone.route;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The object-storage routes' pulls, on their own thread ({@code dpone-chunk-puller}): the route thread hands over
 * each chunk as soon as it is uploaded ({@link #submit}) and goes on uploading the next one while ClickHouse pulls,
 * and the encoder goes on encoding the one after. {@code grouped}: one {@code INSERT ... SELECT} over a glob of every
 * chunk uploaded since the previous pull began (so the pulls group themselves by how far the uploads got ahead);
 * otherwise one statement per chunk, by its key, in upload order.
 *
 * <p>Bounded: at most {@link #MAX_WAITING} uploaded chunks wait for their pull or are being pulled; beyond that the
 * route thread waits in {@link #submit}. A failed pull fails the next {@link #submit} or {@link #finish} with its
 * exception; {@link #close} stops the thread (the run's resources close it, the failure handler before it drops
 * anything).
 */
final class ChunkPulls implements AutoCloseable {
    /** Uploaded chunks not pulled yet, the ones being pulled included. */
    static final int MAX_WAITING = 4;

    /** An uploaded chunk waiting for its pull. */
    record Uploaded(Chunk chunk, String key) {
    }

    /** Pulls one batch of uploaded chunks (one statement); called on the pull thread only. */
    interface Puller {
        void pull(List<Uploaded> batch);
    }

    private final boolean grouped;
    private final Puller puller;
    private final WorkerThreads workers;
    private final Deque<Uploaded> waiting = new ArrayDeque<>();
    private int pulling;
    private boolean finished;
    private boolean closed;
    private RuntimeException failure;
    private WorkerThreads.Worker thread;

    ChunkPulls(boolean grouped, Puller puller, WorkerThreads workers) {
        this.grouped = grouped;
        this.puller = puller;
        this.workers = workers;
    }

    /** Queues an uploaded chunk for its pull; waits while {@link #MAX_WAITING} chunks wait already. */
    synchronized void submit(Chunk chunk, String key) {
        if (finished || closed) {
            throw new IllegalStateException("the pulls are finished");
        }
        if (thread == null) {
            thread = workers.start("dpone-chunk-puller", this::run);
        }
        while (failure == null && waiting.size() + pulling >= MAX_WAITING) {
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
                while (waiting.isEmpty() && !finished && !closed) {
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
