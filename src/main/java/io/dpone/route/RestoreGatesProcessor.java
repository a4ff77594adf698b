package io.dpone.route;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The resume branch of a transfer route: a previous attempt of this run id already published, so its gates are
 * not run again; the report states the gates that admitted the published generation, read from the run journal
 * written before the swap ({@link PublishProcessor}).
 */
public final class RestoreGatesProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
        RunJournal.load(run).gates().forEach(run::addGate);
    }
}
