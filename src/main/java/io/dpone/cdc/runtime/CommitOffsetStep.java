package io.dpone.cdc.runtime;

/**
 * Step 5: commit the batch's next offset. Reached only when no blocker exists: idempotency passed, the receipt is
 * {@code passed && durable}, no policy blocker. A batch with nothing to apply and no next offset commits nothing.
 * The commit is a compare-and-set on the offset the tick loaded ({@code cdc_runtime.offset_conflict} when another
 * writer moved it). A next offset equal to the committed one is not written again ({@code offset_unchanged}). The
 * commit is never retried: after a transient fault in it the step reads the checkpoint back, and the tick counts as
 * committed only when the checkpoint holds the batch's next offset (the insert landed, its answer was lost).
 */
public final class CommitOffsetStep extends CdcStep {
    public CommitOffsetStep() {
        super("commit_offset");
    }

    @Override
    protected void run(CdcTick tick) {
        if (tick.receipt() == null || !tick.receipt().passed() || !tick.receipt().durable()
            || !tick.idempotency().passed() || tick.batch().nextOffset() == null) {
            return;
        }
        if (tick.offsetBefore().equals(java.util.Optional.of(tick.batch().nextOffset()))) {
            tick.offsetAlreadyCommitted();
            return;
        }
        try {
            tick.adapters().offsets().commit(tick.stream(), tick.offsetBefore(), tick.batch().nextOffset(),
                tick.runId());
        } catch (io.dpone.error.DponeException e) {
            if (!io.dpone.retry.TransientFaults.isTransient(e) || !landed(tick)) {
                throw e;
            }
        }
        tick.offsetCommitted();
    }

    /**
     * After a transient fault in the commit (issue 35): whether its row landed before the connection broke, read
     * back from the store (the commit itself never runs again). True when the checkpoint is now the batch's next
     * offset; false when it is not, or when it cannot be read: then the tick fails with the commit's blocker and the
     * next tick's {@code load_offset} reconciles.
     */
    private static boolean landed(CdcTick tick) {
        try {
            return tick.adapters().offsets().load(tick.stream()).equals(java.util.Optional.of(
                tick.batch().nextOffset()));
        } catch (RuntimeException e) {
            return false;
        }
    }
}
