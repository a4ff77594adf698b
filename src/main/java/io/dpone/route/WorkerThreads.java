package io.dpone.route;

/** The route's worker threads (source readers, chunk encoder): daemon start; bounded stop. */
final class WorkerThreads {
    static final long STOP_MILLIS = 10_000;

    private WorkerThreads() {
    }

    /** Starts {@code task} on a new daemon thread named {@code name}. */
    static Thread start(String name, Runnable task) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
        return t;
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
