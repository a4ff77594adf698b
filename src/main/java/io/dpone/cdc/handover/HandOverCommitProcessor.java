package io.dpone.cdc.handover;

import io.dpone.camel.FullRefreshProperties;
import io.dpone.camel.RunRequest;
import io.dpone.error.DponeException;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code full_refresh.hand_over_commit}, only after the run passed: commits the position as the stream's
 * checkpoint ({@link SnapshotHandOver#commitAfterPublication}). Its note, or its typed refusal's blockers (the
 * publication is durable by then, so the report turns red and the same run id retries the hand-over), go to the
 * exchange for the report.
 */
public final class HandOverCommitProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        RunRequest request = exchange.getProperty(FullRefreshProperties.REQUEST, RunRequest.class);
        String position = exchange.getProperty(FullRefreshProperties.HANDOVER_POSITION, String.class);
        try {
            exchange.setProperty(FullRefreshProperties.HANDOVER_NOTE,
                SnapshotHandOver.commitAfterPublication(request, position));
        } catch (DponeException e) {
            exchange.setProperty(FullRefreshProperties.HANDOVER_BLOCKERS, e.blockers());
        }
    }
}
