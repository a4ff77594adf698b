package io.dpone.serve;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * One run at a time per target table inside this process. A job's run that finds its target busy is skipped (and
 * counted by its caller), never queued; a fleet's table waits for it. Across pods this is not a fence: see docs/operations.md, "Limits".
 */
public final class TargetLocks {
    private final ConcurrentHashMap<String, Semaphore> locks = new ConcurrentHashMap<>();

    /** Takes the target's lock if free; returns false at once when another run holds it. */
    public boolean tryAcquire(String target) {
        return locks.computeIfAbsent(target, t -> new Semaphore(1)).tryAcquire();
    }

    /**
     * Takes the target's lock, waiting while another run holds it (a fleet's table waits for a job of the same
     * target to end rather than being skipped); returns false, without the lock, once {@code stopping} is true.
     */
    public boolean acquireUnlessStopping(String target, java.util.function.BooleanSupplier stopping) {
        Semaphore s = locks.computeIfAbsent(target, t -> new Semaphore(1));
        while (!stopping.getAsBoolean()) {
            try {
                if (s.tryAcquire(200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    return true;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    public void release(String target) {
        locks.get(target).release();
    }
}
