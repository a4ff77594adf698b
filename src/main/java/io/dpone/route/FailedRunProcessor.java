package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared error policy's step: stops the source reader, deletes spooled chunks, and drops this run's own
 * staging table unless the run already published (then the leftover is the predecessor, dropped on resume).
 * The target's data is never touched here; merges paused on an embedded target for the run start again. A run the
 * process's stop ended keeps its staging table: the next attempt with the run id resumes from it
 * ({@link StagingResume}). The exception still propagates to the caller.
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
        resources.abandonOpening(); // the source side may still be opening: nothing it opens may outlive the run
        if (resources.hasProducer()) {
            resources.producer().close();
        }
        if (resources.pulls() != null) {
            resources.pulls().close(); // no pull may still read the objects or write the table removed below
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
                ProbeReuse.forget(ProbeReuse.key(run, staging)); // what the probes found may be what failed
            } catch (RuntimeException ignored) {
                // the key could not be formed, so nothing was reused under it
            }
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
                if (stoppedByShutdown(exchange)) {
                    LOG.debug("merges of the target of run {} not started again (stopping); the engine's next open "
                        + "does", run.plan().runKey());
                } else {
                    LOG.warn("merges of the target of run {} could not be started again; the engine's next open does",
                        run.plan().runKey());
                }
            }
        }
        if (stoppedByShutdown(exchange)) {
            // a stop, not a failure: the next start resumes the run id from the staging table's rows (StagingResume)
            // debug only: the command's own report says what stopped and what is kept (the run key is internal)
            LOG.debug("staging table of run {} kept: the next attempt with the same run id loads only what it lacks",
                run.plan().runKey());
            if (run.stagingStats() != null) {
                try {
                    run.stagingStats().abandon(); // merges run again on the kept table
                } catch (RuntimeException e) {
                    LOG.debug("merges of the staging table of run {} could not be started again (stopping)",
                        run.plan().runKey());
                }
            }
            return;
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

    /**
     * The run ends because the process is stopping: a chunk boundary refused it, the context is going down, or the
     * JVM is shutting down.
     */
    static boolean stoppedByShutdown(Exchange exchange) {
        if (exchange.getContext().isStopping() || ProcessShutdown.inProgress()) {
            return true;
        }
        for (Throwable t = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class); t != null
                && t.getCause() != t; t = t.getCause()) {
            if (t instanceof DponeException d && d.blockers().stream()
                    .anyMatch(b -> b.code().equals(BlockerCode.SERVE_SHUTDOWN_INTERRUPTED.code()))) {
                return true;
            }
        }
        return false;
    }
}
