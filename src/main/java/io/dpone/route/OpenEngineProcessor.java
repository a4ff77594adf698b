package io.dpone.route;

import io.dpone.clickhouse.TableAdmin;
import io.dpone.manifest.SinkSpec;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code open_engine}, the first of prepare: names the run on the exchange, opens the run's ClickHouse endpoint
 * and makes sure the target and staging databases are Atomic (created when missing).
 *
 * <p>The engine is opened first, alone: the embedded engine's first connect replaces the JVM's SIGSEGV handler until
 * SignalHandlerGuard restores it, and a Java thread of the run running meanwhile (a safepoint poll, an implicit null
 * check) would kill the process. With the source opened at the same time, two of about a dozen runs died with signal
 * 11 and no hs_err file, as a missing JVM handler predicts. So the source side starts only at {@code open_source}.
 */
public final class OpenEngineProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getIn().getBody(TransferRun.class);
        exchange.setProperty(RouteProperties.RUN, run);
        long t0 = System.nanoTime();
        SinkSpec sink = run.plan().manifest().sink();
        TableAdmin admin = new TableAdmin(run.openClickHouse());
        admin.ensureAtomicDatabase(sink.table().schema(), "sink.table.schema");
        admin.ensureAtomicDatabase(sink.stagingSchema(), "sink.staging.schema");
        run.counters().addStep("prepare", t0);
    }
}
