package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.SinkReceipt;
import io.dpone.connect.Redactor;
import io.dpone.error.DponeException;
import java.util.List;
import java.util.Map;

/**
 * Step 4: hand the apply set to the sink. A receipt with {@code passed=false} is
 * {@code cdc_runtime.sink_apply_failed}; {@code durable=false} is {@code cdc_runtime.sink_not_durable}; an
 * exception from the applier is {@code cdc_runtime.sink_apply_failed} unless it is already typed.
 */
public final class ApplyStep extends CdcStep {
    public ApplyStep() {
        super("apply");
    }

    @Override
    protected void run(CdcTick tick) {
        CdcApplyBatch batch = new CdcApplyBatch(tick.idempotency().batchId(), tick.runId(), tick.idempotency().toApply(),
            tick.batch().columns());
        SinkReceipt r;
        try {
            r = tick.adapters().applier().apply(tick.stream(), batch);
        } catch (DponeException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DponeException(CdcBlockers.blocker(CdcBlockers.SINK_APPLY_FAILED, "sink",
                "the sink applier failed: " + Redactor.global().describe(e)));
        }
        tick.applied(r);
        if (r == null || !r.passed()) {
            tick.block(List.of(CdcBlockers.blocker(CdcBlockers.SINK_APPLY_FAILED, "sink",
                "the sink applier did not pass" + (r == null || r.message() == null ? "" : ": " + r.message()),
                Map.of("batch_id", batch.batchId()))));
        } else if (!r.durable()) {
            tick.block(List.of(CdcBlockers.blocker(CdcBlockers.SINK_NOT_DURABLE, "sink",
                "the sink applied the batch but did not return a durable receipt; the offset was not committed",
                Map.of("batch_id", batch.batchId()))));
        }
    }
}
