package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared error policy's step: stops the source reader, deletes spooled chunks, and drops this run's own
 * staging table unless the run already published (then the leftover is the predecessor, dropped on resume).
 * The target's data is never touched here; merges paused on an embedded target for the run start again. The
 * exception still propagates to the caller.
 */
public final class FailedRunProcessor implements Processor {
    private static final Logger LOG = LoggerFactory.getLogger(FailedRunProcessor.class);

    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        if (run == null) {
            return;
        }
        RunResources resources = run.resources();
        if (resources.hasProducer()) {
            resources.producer().close();
        }
        try {
            SpoolDirectory.delete(run.spoolDir());
        } catch (RuntimeException e) {
            LOG.warn("spooled chunks of run {} could not be deleted; a resume with the same run id deletes them",
                run.plan().runKey());
        }
        ObjectStaging staging = resources.objectStaging();
        if (staging != null) {
            try {
                staging.deleteAll();
            } catch (RuntimeException e) {
                LOG.warn("staged objects of run {} could not be deleted; a resume with the same run id deletes them",
                    run.plan().runKey());
            }
        }
        if (!run.published() && run.replacedMerges() != null) {
            try {
                run.replacedMerges().resume();
            } catch (RuntimeException e) {
                LOG.warn("merges of the target of run {} could not be started again; the engine's next open does",
                    run.plan().runKey());
            }
        }
        if (!run.published() && resources.hasClickHouse() && run.stagingTable() != null) {
            try {
                new TableAdmin(resources.clickhouse()).drop(run.plan().manifest().sink().stagingSchema(),
                    run.stagingTable());
            } catch (RuntimeException e) {
                LOG.warn("staging table of run {} could not be dropped; a resume with the same run id drops it",
                    run.plan().runKey());
            }
        }
    }
}
