package io.dpone.serve;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * One run at a time per target table inside this process. A run that finds its target busy is skipped (and
 * counted by its caller), never queued. Across pods this is not a fence: see docs/operations.md, "Limits".
 */
public final class TargetLocks {
    private final ConcurrentHashMap<String, Semaphore> locks = new ConcurrentHashMap<>();

    /** Takes the target's lock if free; returns false at once when another run holds it. */
    public boolean tryAcquire(String target) {
        return locks.computeIfAbsent(target, t -> new Semaphore(1)).tryAcquire();
    }

    public void release(String target) {
        locks.get(target).release();
    }
}
