package io.dpone.route;

/** Stopping the route's worker threads (source reader, chunk encoder): interrupt, then wait a bounded time. */
final class WorkerThreads {
    private WorkerThreads() {
    }

    static void stop(Thread thread) {
        if (thread == null) {
            return;
        }
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
