package io.dpone.testing.mssql.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults a test arms with {@code EXEC sp_twin_fault @drop_after_rows = N | @stall_ms = M | @error_after_rows = N |
 * @clear = 1}. Each is one-shot: the next result set (any session) or the next request takes it. The wire acts on
 * {@link #takeDropAfterRows()} and {@link #takeStallMs()}; the engine raises error 1205 itself for
 * {@link #takeErrorAfterRows()}. -1 (0 for the stall) means not armed.
 */
public final class TwinFaults {
    private final AtomicInteger dropAfterRows = new AtomicInteger(-1);
    private final AtomicLong stallMs = new AtomicLong(0);
    private final AtomicInteger errorAfterRows = new AtomicInteger(-1);

    public int dropAfterRows() {
        return dropAfterRows.get();
    }

    /** The armed drop, disarming it: the wire calls this when a result set starts. */
    public int takeDropAfterRows() {
        return dropAfterRows.getAndSet(-1);
    }

    public long stallMs() {
        return stallMs.get();
    }

    /** The armed stall, disarming it: the wire calls this when a request arrives. */
    public long takeStallMs() {
        return stallMs.getAndSet(0);
    }

    public int errorAfterRows() {
        return errorAfterRows.get();
    }

    int takeErrorAfterRows() {
        return errorAfterRows.getAndSet(-1);
    }

    void armDrop(int rows) {
        dropAfterRows.set(rows);
    }

    void armStall(long ms) {
        stallMs.set(ms);
    }

    void armError(int rows) {
        errorAfterRows.set(rows);
    }

    public void clear() {
        dropAfterRows.set(-1);
        stallMs.set(0);
        errorAfterRows.set(-1);
    }
}
