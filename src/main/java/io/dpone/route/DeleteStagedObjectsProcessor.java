package io.dpone.route;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/** Deletes every object under the run's own prefix (and only there) once ClickHouse has pulled them. */
public final class DeleteStagedObjectsProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        if (run.objectStaging == null) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            run.objectStaging.store().store().deletePrefix(run.objectStaging.prefix().keyPrefix());
        } catch (RuntimeException e) {
            throw new DponeException(BlockerCode.STORAGE_CLEANUP_FAILED, "object_storage",
                "staged objects of this run could not be deleted; rerun with the same run id");
        }
        run.addStep("cleanup", t0);
    }
}
