package io.dpone.route;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.CamelContext;

/**
 * Where the route's worker threads (source readers, chunk encoder) come from: in a Camel context, one cached pool
 * from Camel's {@code ExecutorServiceManager} (named threads, listed in JMX, shut down with the context); outside
 * one (unit tests), a cached pool of daemon threads. A worker is stopped by interrupting it and waiting a bounded
 * time for it to finish.
 */
public final class WorkerThreads {
    static final long STOP_MILLIS = 10_000;
    /** The pool's name in Camel's ExecutorServiceManager (and so in JMX). */
    public static final String POOL = "dpone-route-workers";

    private final ExecutorService pool;

    private WorkerThreads(ExecutorService pool) {
        this.pool = pool;
    }

    /** The context's worker pool, created on first use and owned by the context (stopped with it). */
    public static WorkerThreads of(CamelContext context) {
        synchronized (context) {
            WorkerThreads w = context.getRegistry().lookupByNameAndType(POOL, WorkerThreads.class);
            if (w == null) {
                w = new WorkerThreads(context.getExecutorServiceManager().newCachedThreadPool(context, POOL));
                context.getRegistry().bind(POOL, WorkerThreads.class, w);
            }
            return w;
        }
    }

    /** Daemon threads outside a Camel context (tests); nothing else stops them, so only bounded work belongs here. */
    static WorkerThreads standalone() {
        return new WorkerThreads(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        }));
    }

    /** Runs {@code task} on a pool thread that carries {@code name} while the task runs (thread dumps show it). */
    Worker start(String name, Runnable task) {
        CountDownLatch done = new CountDownLatch(1);
        AtomicBoolean claimed = new AtomicBoolean();
        Future<?> future = pool.submit(() -> {
            if (!claimed.compareAndSet(false, true)) {
                return; // stopped before it began: stop() counted it done
            }
            Thread t = Thread.currentThread();
            String pooled = t.getName();
            t.setName(name);
            try {
                task.run();
            } finally {
                t.setName(pooled);
                Thread.interrupted(); // a stop's interrupt must not reach the pool's next task
                done.countDown();
            }
        });
        return new Worker(future, done, claimed);
    }

    /**
     * One running task: interrupted by {@link #stop(Worker...)}, which waits for it to finish. {@code claimed} is
     * taken by whichever comes first, the task beginning or a stop: a task stopped before a pool thread took it up
     * never runs, and counts as done at once (a cancelled task that never ran would never open {@code done}).
     */
    record Worker(Future<?> future, CountDownLatch done, AtomicBoolean claimed) {
    }

    /** Interrupts all of {@code workers} first, then waits for them within one shared bound. */
    static void stop(Worker... workers) {
        for (Worker w : workers) {
            if (w != null) {
                if (w.claimed.compareAndSet(false, true)) {
                    w.done.countDown();
                }
                w.future.cancel(true);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_MILLIS);
        try {
            for (Worker w : workers) {
                long left = deadline - System.nanoTime();
                if (w != null && left > 0) {
                    w.done.await(left, TimeUnit.NANOSECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
