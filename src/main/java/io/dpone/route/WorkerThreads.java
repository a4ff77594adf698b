package io.dpone.route;

/** Stopping the route's worker threads (source readers, chunk encoder): interrupt, then wait a bounded time. */
final class WorkerThreads {
    static final long STOP_MILLIS = 10_000;

    private WorkerThreads() {
    }

    /** Interrupts all of {@code threads} first, then waits for them within one shared bound. */
    static void stop(Thread... threads) {
        for (Thread t : threads) {
            if (t != null) {
                t.interrupt();
            }
        }
        long deadline = System.nanoTime() + STOP_MILLIS * 1_000_000;
        try {
            for (Thread t : threads) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (t != null && left > 0) {
                    t.join(left);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
