package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcBatchPolicy;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.IdempotencyResult;
import java.util.List;
import java.util.Map;

/**
 * Step 3: event identity (duplicates inside the batch are {@code cdc_runtime.duplicate_events}; events at or
 * below the checkpoint are replays, dropped from the apply set) and the batch policy (stream, backend, offset
 * regression, next offset for a non-empty apply set). Any blocker here stops the tick before the sink.
 */
public final class IdempotencyStep extends CdcStep {
    public IdempotencyStep() {
        super("idempotency");
    }

    @Override
    protected void run(CdcTick tick) {
        IdempotencyResult r = tick.adapters().idempotency().check(tick.stream(), tick.batch(), tick.offsetBefore());
        tick.idempotencyChecked(r);
        if (!r.passed()) {
            tick.block(List.of(CdcBlockers.blocker(CdcBlockers.DUPLICATE_EVENTS,
                String.valueOf(r.duplicates().get(0).get("event")),
                r.duplicates().size() + " change(s) repeat an earlier change's identity (backend, source table, "
                    + "position, sequence, operation); nothing was applied",
                Map.of("duplicates", r.duplicates()))));
        }
        tick.block(CdcBatchPolicy.check(tick.stream(), tick.batch(), tick.offsetBefore(), r));
    }
}
