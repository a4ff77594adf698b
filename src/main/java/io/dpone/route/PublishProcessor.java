package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import io.dpone.manifest.SinkSpec;
import io.dpone.retry.TransientFaults;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Atomic finalize: records the run's gate evidence durably, then swaps the staging table into the target name
 * with one {@code EXCHANGE TABLES} (or {@code RENAME} for a first load). The predecessor now sits under this run's
 * own staging name; {@link DropPredecessorProcessor} drops it. A crash after the swap is recognised on resume by the
 * target's generation comment, so the swap is never repeated. A run whose gates did not all run and pass is refused
 * ({@link GateEvidence}), so a route file that drops or replaces the gates step cannot publish.
 *
 * <p>The swap is not idempotent, so it is never retried. When its answer is lost to a transient fault (a reset or a
 * timeout after the server received it), the processor reconciles by reading state: if the target now carries this
 * run's generation comment, the swap ran and the run goes on as published; otherwise the run fails as before, and
 * its resume recognises a swap that ran late the same way ({@link DetectResumeProcessor}).
 */
public final class PublishProcessor implements Processor {
    private static final Logger LOG = LoggerFactory.getLogger(PublishProcessor.class);

    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        SinkSpec sink = run.plan().manifest().sink();
        TableAdmin admin = new TableAdmin(run.clickhouse());
        long t0 = System.nanoTime();
        GateEvidence.requireComplete(run); // whatever the route file says: no gates, no publication
        RunJournal.save(run);
        try {
            if (admin.exists(sink.table().schema(), sink.table().name())) {
                admin.exchange(sink.stagingSchema(), run.stagingTable(), sink.table().schema(), sink.table().name());
            } else {
                admin.rename(sink.stagingSchema(), run.stagingTable(), sink.table().schema(), sink.table().name());
            }
        } catch (RuntimeException e) {
            if (!TransientFaults.isTransient(e) || !carriesThisGeneration(admin, sink, run)) {
                throw e;
            }
            LOG.warn("run {}: the swap's answer was lost to a transient fault; the target carries this run's "
                + "generation, so the swap ran", run.plan().runId());
        }
        run.markPublished();
        run.counters().addStep("finalize", t0);
    }

    private static boolean carriesThisGeneration(TableAdmin admin, SinkSpec sink, TransferRun run) {
        return admin.comment(sink.table().schema(), sink.table().name())
            .filter(run.plan().generationComment()::equals).isPresent();
    }
}
