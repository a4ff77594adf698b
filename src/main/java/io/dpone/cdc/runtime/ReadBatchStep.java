package io.dpone.cdc.runtime;

/** Step 2: read one bounded batch after the checkpoint. */
public final class ReadBatchStep extends CdcStep {
    public ReadBatchStep() {
        super("read_batch");
    }

    @Override
    protected void run(CdcTick tick) {
        tick.batchRead(tick.adapters().reader().readBatch(tick.offsetBefore().orElse(null), tick.maxEvents()));
    }
}
