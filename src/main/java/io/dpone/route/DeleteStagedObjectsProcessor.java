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
        ObjectStaging staging = run.resources().objectStaging();
        if (staging == null) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            staging.deleteAll();
        } catch (RuntimeException e) {
            throw new DponeException(BlockerCode.STORAGE_CLEANUP_FAILED, "object_storage",
                "staged objects of this run could not be deleted; rerun with the same run id");
        }
        run.counters().addStep("cleanup", t0);
    }
}
