package io.dpone.route;

import io.dpone.clickhouse.ReplacedGenerationMerges;
import io.dpone.manifest.SinkSpec;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code prepare_sink}, while the source side opens: pauses the merges of the target this run replaces (embedded
 * engine), waits until the source is described (a failure there, such as a manifest column the source lacks, fails
 * this step with its blocker, before any staging table exists), then keeps this run's leftover staging table from an
 * attempt that was killed or stopped when it can be resumed from, else drops it ({@link StagingResume}).
 */
public final class PrepareSinkProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        SinkSpec sink = run.plan().manifest().sink();
        run.replacedMerges(ReplacedGenerationMerges.pause(run.clickhouse(), sink.table().schema(), sink.table().name())
            .orElse(null));
        run.resources().opening().described();
        StagingResume.keepOrDrop(run, run.clickhouse(), StagingDdl.orderBy(run)).ifPresent(run::keptStaging);
        run.counters().addStep("prepare", t0);
    }
}
