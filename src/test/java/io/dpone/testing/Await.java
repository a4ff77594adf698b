package io.dpone.testing;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The one way a test waits: for a condition, a latch or a child process, each with a bound, failing with what it
 * waited for. No test synchronises with another thread or process by sleeping (docs/testing.md, "Test tiers").
 */
public final class Await {
    /** How often {@link #until} looks again. */
    static final Duration POLL = Duration.ofMillis(20);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails when it does not within {@code bound}. */
    public static void until(Duration bound, String what, BooleanSupplier condition) {
        long end = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("timed out after " + bound + " waiting for " + what);
            }
            try {
                Thread.sleep(POLL.toMillis()); // the polling interval of a bounded wait, not a synchronisation
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    /** Returns once {@code latch} is open; fails when it is not within {@code bound}. */
    public static void until(Duration bound, String what, CountDownLatch latch) {
        try {
            if (!latch.await(bound.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new AssertionError("timed out after " + bound + " waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
    }

    /**
     * The exit code of {@code p} once it ends; when it does not end within {@code bound} it is killed (with its
     * descendants) and the wait fails.
     */
    public static int exit(Process p, Duration bound, String what) {
        try {
            if (p.waitFor(bound.toNanos(), TimeUnit.NANOSECONDS)) {
                return p.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(p);
            throw new AssertionError("interrupted waiting for " + what + " to end", e);
        }
        kill(p);
        throw new AssertionError(what + " did not end within " + bound + " (killed)");
    }

    /** Ends {@code p} and its descendants at once and waits (bounded) until they are gone. */
    public static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
