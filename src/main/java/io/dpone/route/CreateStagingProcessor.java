package io.dpone.route;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code create_staging}: creates this run's staging table ({@link StagingDdl}), unless {@code prepare_sink}
 * kept the one an earlier attempt of the run left.
 */
public final class CreateStagingProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        if (run.keptStaging() == null) {
            run.clickhouse().operations().createTable(StagingDdl.create(run));
        }
        run.counters().addStep("prepare", t0);
    }
}
