package io.dpone.route;

import io.dpone.camel.FullRefreshProperties;
import io.dpone.watchdog.PhaseWatchdog;
import org.apache.camel.AsyncCallback;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.NamedNode;
import org.apache.camel.model.ProcessorDefinition;
import org.apache.camel.model.ProcessorDefinitionHelper;
import org.apache.camel.Processor;
import org.apache.camel.spi.InterceptStrategy;
import org.apache.camel.support.processor.DelegateAsyncProcessor;

/**
 * Reports every route step, on entry and on completion, to the CLI's {@link PhaseWatchdog} as the phase
 * {@code <route id>/<step>} (a shipped step's id is {@code <route id>.<step>}, unique in the context as Camel
 * wants): a step that neither ends nor lets a nested step start within the bound (a chunk of a split is a nested
 * step) is a hang. A transfer run's step is also told to the run's {@link ProgressListener} (serve shows it as the
 * in-flight phase). camel-main picks it up from the registry and wraps every processor; with no guard armed (serve,
 * the Java API) a step costs one volatile read and one exchange property lookup.
 */
public final class PhaseInterceptStrategy implements InterceptStrategy {
    @Override
    public Processor wrapProcessorInInterceptors(CamelContext context, NamedNode definition, Processor target,
                                                 Processor nextTarget) {
        // the step's own route (not the exchange's first route: full_refresh calls the transfer route with the same
        // exchange) and its id as JMX shows it (a templated route's prefixId included)
        org.apache.camel.model.RouteDefinition owner = definition instanceof ProcessorDefinition<?> p
            ? ProcessorDefinitionHelper.getRoute(p) : null;
        String ownRoute = owner != null ? owner.getRouteId() : null;
        String id = definition.getId();
        String step = ownRoute != null && owner.getNodePrefixId() != null && !id.startsWith(ownRoute + ".")
            && (owner.getNodePrefixId() + id).startsWith(ownRoute + ".") ? owner.getNodePrefixId() + id : id;
        return new DelegateAsyncProcessor(target) {
            @Override
            public boolean process(Exchange exchange, AsyncCallback callback) {
                String route = ownRoute != null ? ownRoute : exchange.getFromRouteId();
                String name = route != null && step.startsWith(route + ".") ? step.substring(route.length() + 1)
                    : step;
                TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
                if (run == null && exchange.getIn().getBody() instanceof TransferRun body) {
                    run = body; // the route's first steps, before prepare names the run on the exchange
                }
                if (run != null) {
                    run.plan().progress().phase(name);
                } else if (exchange.getProperty(FullRefreshProperties.PROGRESS) instanceof ProgressListener entry) {
                    entry.phase(name); // full_refresh's steps before the run exists (the hand-over, the choice)
                }
                if (!PhaseWatchdog.armed()) {
                    return super.process(exchange, callback); // serve and the Java API: nothing to report to
                }
                String phase = route + "/" + name;
                PhaseWatchdog.phase(phase);
                return super.process(exchange, doneSync -> {
                    PhaseWatchdog.phase(phase + " done");
                    callback.done(doneSync);
                });
            }
        };
    }
}
