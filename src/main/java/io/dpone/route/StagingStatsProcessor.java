package io.dpone.route;

import io.dpone.clickhouse.PartwiseTableStats;
import io.dpone.quality.FidelityColumns;
import io.dpone.source.SourceColumn;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code staging_stats}, the last of prepare: stops the staging table's merges and starts counting its parts
 * as chunks land ({@link PartwiseTableStats}, the target side of the gates). Only after this step may a chunk be
 * loaded.
 */
public final class StagingStatsProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        RunPlan plan = run.plan();
        var quality = plan.manifest().quality();
        run.stagingStats(PartwiseTableStats.start(run.clickhouse(), plan.manifest().sink().stagingSchema(),
            run.stagingTable(), run.table().columns().stream().map(SourceColumn::name).toList(),
            FidelityColumns.all(run.table().columns()), plan.runId(), quality.hashSampleModulo(),
            quality.distinctColumns()));
        run.counters().addStep("prepare", t0);
    }
}
