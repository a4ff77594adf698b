package io.dpone.route;

import io.dpone.publication.runtime.ClusterPublicationJob;
import java.util.function.Consumer;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * One step of the {@code cluster_publication} route: the exchange body is the {@link ClusterPublicationJob}, and the
 * step is one of its methods ({@code decide}, {@code admit}, {@code publish}). A typed failure propagates through the
 * shared error policy to {@link FullRefreshRunner}, which reports the blockers with what the job established.
 */
public final class ClusterStepProcessor implements Processor {
    private final Consumer<ClusterPublicationJob> step;

    public ClusterStepProcessor(Consumer<ClusterPublicationJob> step) {
        this.step = step;
    }

    @Override
    public void process(Exchange exchange) {
        step.accept(exchange.getIn().getBody(ClusterPublicationJob.class));
    }
}
