package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import io.dpone.manifest.SinkSpec;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Atomic finalize: records the run's gate evidence durably, then swaps the staging table into the target name
 * with one {@code EXCHANGE TABLES} (or {@code RENAME} for a first load). The predecessor now sits under this run's
 * own staging name; {@link DropPredecessorProcessor} drops it. A crash after the swap is recognised on resume by the
 * target's generation comment, so the swap is never repeated. A run whose gates did not all run and pass is refused
 * ({@link GateEvidence}), so a route file that drops or replaces the gates step cannot publish.
 */
public final class PublishProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        SinkSpec sink = run.plan().manifest().sink();
        TableAdmin admin = new TableAdmin(run.clickhouse());
        long t0 = System.nanoTime();
        GateEvidence.requireComplete(run); // whatever the route file says: no gates, no publication
        RunJournal.save(run);
        if (admin.exists(sink.table().schema(), sink.table().name())) {
            admin.exchange(sink.stagingSchema(), run.stagingTable(), sink.table().schema(), sink.table().name());
        } else {
            admin.rename(sink.stagingSchema(), run.stagingTable(), sink.table().schema(), sink.table().name());
        }
        run.markPublished();
        run.counters().addStep("finalize", t0);
    }
}
