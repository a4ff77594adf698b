package io.dpone.cdc.runtime;

/** Step 1: load the last durable checkpoint (a checkpoint of another stream is a typed blocker). */
public final class LoadOffsetStep extends CdcStep {
    public LoadOffsetStep() {
        super("load_offset");
    }

    @Override
    protected void run(CdcTick tick) {
        tick.offsetLoaded(tick.adapters().offsets().load(tick.stream()));
    }
}
