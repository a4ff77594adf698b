package io.dpone.serve;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Set once when the process is asked to stop (SIGTERM, {@code ServeRuntime.stop()}): schedules fire no new run and
 * a load in flight stops at its next chunk boundary.
 */
public final class ShutdownSignal {
    private final AtomicBoolean stopping = new AtomicBoolean();

    public void stop() {
        stopping.set(true);
    }

    public boolean stopping() {
        return stopping.get();
    }
}
