package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * After the swap, drops the predecessor generation, which sits under this run's own deterministic staging name,
 * so only the exact table this run displaced is ever dropped. Idempotent: a resume repeats it safely.
 */
public final class DropPredecessorProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        long t0 = System.nanoTime();
        new TableAdmin(run.clickhouse()).drop(run.plan().manifest().sink().stagingSchema(), run.stagingTable());
        run.counters().addStep("cleanup", t0);
    }
}
