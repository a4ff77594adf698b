package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import io.dpone.manifest.SinkSpec;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code detect_resume}: the run claims its own names (the staging table, which a failure drops unless the run
 * published, and a fresh spool directory), then recognises a resume after publication: the target already carries
 * this run's generation comment, so a previous attempt of this run id published and only its cleanup can be
 * outstanding ({@link TransferRun#resumedAfterPublish()}, which the route's {@code published_before} choice reads).
 */
public final class DetectResumeProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        RunPlan plan = run.plan();
        SinkSpec sink = plan.manifest().sink();
        run.claimStaging();
        run.spoolDir(SpoolDirectory.fresh(plan.workDir(), plan.runKey())); // a resume after publish: the audit removes it
        if (new TableAdmin(run.clickhouse()).comment(sink.table().schema(), sink.table().name())
                .filter(plan.generationComment()::equals).isPresent()) {
            run.markResumedAfterPublish();
        }
        run.counters().addStep("prepare", t0);
    }
}
