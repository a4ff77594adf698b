package io.dpone.cdc.runtime;

/**
 * Step 5: commit the batch's next offset. Reached only when no blocker exists: idempotency passed, the receipt is
 * {@code passed && durable}, no policy blocker. A batch with nothing to apply and no next offset commits nothing.
 * The commit is a compare-and-set on the offset the tick loaded ({@code cdc_runtime.offset_conflict} when another
 * writer moved it). A next offset equal to the committed one is not written again ({@code offset_unchanged}).
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
        tick.adapters().offsets().commit(tick.stream(), tick.offsetBefore(), tick.batch().nextOffset(),
            tick.runId());
        tick.offsetCommitted();
    }
}
