package io.dpone.publication.runtime;

import io.dpone.connect.ConnectionContext;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.publication.plan.PublicationPlanner;
import io.dpone.publication.protocol.ClusterMember;
import java.util.List;
import java.util.function.Function;

/**
 * A cluster publication without Camel: the steps of a {@link ClusterPublicationJob} in order. The product's entry
 * points (the CLI, the Java API, serve jobs) run the same steps through the {@code cluster_publication} route; the
 * live certification and the integration tests call this runner.
 */
public final class ClusterPublicationRunner {
    /** The id of the route a cluster publication runs through (and reports). */
    public static final String ROUTE_ID = "cluster_publication";
    private final ConnectionContext context;
    private final Function<String, String> env;
    private final java.util.function.UnaryOperator<ClusterMember> memberDecorator;

    public ClusterPublicationRunner(ConnectionContext context, Function<String, String> env) {
        this(context, env, java.util.function.UnaryOperator.identity());
    }

    /** With a decorator around every member connection (fault injection in the integration tests). */
    public ClusterPublicationRunner(ConnectionContext context, Function<String, String> env,
                                    java.util.function.UnaryOperator<ClusterMember> memberDecorator) {
        this.context = context;
        this.env = env;
        this.memberDecorator = memberDecorator;
    }

    /** True when the manifest requests a cluster publication (it must then never run locally). */
    public static boolean requested(BatchManifest m) {
        return PublicationPlanner.decide(m, name -> null).requested();
    }

    /** Runs the three steps of a {@link ClusterPublicationJob} in order, without Camel (live certification, tests). */
    public ClusterRun run(BatchManifest m, String runId) {
        try (ClusterPublicationJob job = new ClusterPublicationJob(m, runId, context, env, memberDecorator)) {
            try {
                job.decide();
                job.admit();
                job.publish();
                return job.result(List.of());
            } catch (DponeException e) {
                return job.result(e.blockers());
            }
        }
    }
}
