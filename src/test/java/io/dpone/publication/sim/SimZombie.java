package io.dpone.publication.sim;

import io.dpone.publication.protocol.PublicationMode;
import java.util.concurrent.Semaphore;

/**
 * A paused old runner: a process of the same run id that stops at one of its own points (before an authority
 * read, or with a statement in flight before a side effect) and wakes later, after a new runner resumed. It runs
 * on its own thread, but strictly handed off with the main one, so a schedule stays deterministic.
 * It is never paused with an ON CLUSTER statement in flight: one landing after a new runner re-sent it would be a
 * second queue entry under the same query id (the exchange run twice on every member), which no protocol step can
 * prevent (ClickHouse has no DDL conditional on the authority); docs/publication.md lists it as not covered.
 * Invariant: when it held the fence and another process wrote the authority while it slept, no write of the zombie
 * lands except the one statement it was paused in (in flight).
 */
final class SimZombie {
    private final SimWorld w;
    private final int pauseAt;
    private final String pauseOn;
    private final Semaphore resume = new Semaphore(0);
    private final Semaphore yielded = new Semaphore(0);
    private Thread thread;
    private int points;
    private long versionAtPause;
    /** An authority write of the zombie landed before it paused: it held the fence. */
    private boolean held;
    private boolean fenceMoved;
    String pausedAt;
    boolean woken;
    Object end;

    private SimZombie(SimWorld w, int pauseAt, String pauseOn) {
        this.w = w;
        this.pauseAt = pauseAt;
        this.pauseOn = pauseOn;
    }

    /** Starts the old runner; returns once it paused (or ended without reaching its pause point). */
    static SimZombie start(SimWorld w, String runId, PublicationMode mode, int pauseAt, String pauseOn) {
        SimZombie z = new SimZombie(w, pauseAt, pauseOn);
        w.faults.zombie = z;
        z.thread = new Thread(() -> {
            try {
                z.end = SimHarness.run(w, runId, mode, null);
            } catch (Throwable t) {
                z.end = t;
            } finally {
                z.yielded.release();
            }
        }, "sim-zombie");
        z.thread.setDaemon(true);
        z.thread.start();
        z.yielded.acquireUninterruptibly();
        return z;
    }

    boolean fenceMovedAtWake() {
        return fenceMoved;
    }

    boolean paused() {
        return pausedAt != null && !woken;
    }

    /** Wakes the old runner and waits until it ends. */
    void wake() {
        if (!paused()) {
            return;
        }
        woken = true;
        fenceMoved = held && version() > versionAtPause;
        resume.release();
        yielded.acquireUninterruptibly();
    }

    void onPoint(String where, boolean sideEffect) {
        if (Thread.currentThread() != thread) {
            return;
        }
        if (!woken) {
            held |= where.startsWith("after authority");
            points++;
            boolean eligible = !where.startsWith("ddl submit");
            if (pausedAt == null && eligible && (points >= pauseAt && pauseAt > 0
                || pauseOn != null && where.startsWith(pauseOn))) {
                pausedAt = where;
                versionAtPause = version();
                yielded.release();
                resume.acquireUninterruptibly();
            }
            return;
        }
        // a write lands at its "after" point; only the statement the zombie was paused in may still land
        if (fenceMoved && sideEffect && where.startsWith("after ") && !where.equals("after " + pausedAt)) {
            w.violations.add("the zombie wrote after a new runner took the fence: " + where);
        }
    }

    private long version() {
        return w.authority.values().stream().mapToLong(f -> f.version()).max().orElse(0);
    }
}
