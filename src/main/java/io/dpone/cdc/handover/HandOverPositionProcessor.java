package io.dpone.cdc.handover;

import io.dpone.camel.FullRefreshProperties;
import io.dpone.camel.RunRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Step {@code full_refresh.hand_over_position}, before the snapshot's first row: the CDC stream position the
 * snapshot hands over at ({@link SnapshotHandOver#position}), kept on the exchange for {@code hand_over_commit}.
 */
public final class HandOverPositionProcessor implements Processor {
    @Override
    public void process(Exchange exchange) {
        RunRequest request = exchange.getProperty(FullRefreshProperties.REQUEST, RunRequest.class);
        exchange.setProperty(FullRefreshProperties.HANDOVER_POSITION, SnapshotHandOver.position(request));
    }
}
