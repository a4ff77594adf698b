package io.dpone.route;

import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import io.dpone.publication.runtime.ClusterPublicationJob;
import io.dpone.publication.runtime.ClusterPublicationRunner;
import org.apache.camel.CamelExecutionException;

/**
 * Runs one full refresh through its Camel route and turns the outcome, success or typed failure, into a
 * {@link RunReport}. Never throws for a run failure: the report carries the blockers.
 */
public final class FullRefreshRunner {

    private final DponeCamel camel;
    private final ConnectionContext context;
    private final Path workDir;

    public FullRefreshRunner(DponeCamel camel, ConnectionContext context, Path workDir) {
        this.camel = camel;
        this.context = context;
        this.workDir = workDir;
    }

    /** The connection context runs resolve their aliases in. */
    public ConnectionContext context() {
        return context;
    }

    /** The state directory (run journals, spooled chunks). */
    public Path workDir() {
        return workDir;
    }

    /**
     * Runs {@code manifest}: through the {@code cluster_publication} route when it requests a cluster publication
     * (the one place a run is dispatched there, for the CLI, the Java API and serve jobs; a requested cluster
     * publication never falls back to a local route), otherwise through its transfer route.
     */
    public RunReport run(BatchManifest manifest, String runId, ProgressListener progress) {
        if (ClusterPublicationRunner.requested(manifest)) {
            return cluster(manifest, runId);
        }
        return run(manifest, runId, progress, 0);
    }

    private RunReport cluster(BatchManifest manifest, String runId) {
        try (ClusterPublicationJob job = ClusterPublicationJob.of(manifest, runId, context, System::getenv)) {
            List<Blocker> blockers = List.of();
            try {
                camel.call(ClusterPublicationRunner.ROUTE_ID, job);
            } catch (RuntimeException e) {
                Throwable cause = e instanceof CamelExecutionException && e.getCause() != null ? e.getCause() : e;
                if (!(cause instanceof DponeException)) { // a crash: the caller's failure handling reports it
                    throw cause instanceof RuntimeException r ? r : e;
                }
                blockers = blockersOf(cause);
            }
            return RunReport.ofCluster(job.result(blockers));
        }
    }

    /** As {@link #run(BatchManifest, String, ProgressListener)}, reading at most {@code rowLimit} rows (0: all). */
    public RunReport run(BatchManifest manifest, String runId, ProgressListener progress, long rowLimit) {
        if (!io.dpone.manifest.RunId.valid(runId)) {
            throw new DponeException(BlockerCode.RUN_ID_INVALID, "--run-id",
                io.dpone.manifest.RunId.RULE);
        }
        String routeId = manifest.sink().options().route();
        BulkMode.require(manifest, context);
        ManifestOptions.excluded(manifest, routeId).ifPresent(b -> {
            throw new DponeException(b);
        });
        if (camel.context().getRoute(routeId) == null) {
            throw new DponeException(BlockerCode.RUN_ROUTE_UNAVAILABLE, "sink.options.route",
                "route '" + routeId + "' is not available in this runtime");
        }
        TransferRun run = new TransferRun(RunPlan.of(manifest, runId, context, workDir, progress, routeId, rowLimit,
            camel.connectors()));
        List<Blocker> blockers = List.of();
        try {
            camel.call(run.plan().routeId(), run);
        } catch (RuntimeException e) {
            blockers = blockersOf(e instanceof CamelExecutionException && e.getCause() != null ? e.getCause() : e);
        } finally {
            run.resources().close();
        }
        return report(run, blockers);
    }

    /**
     * Why a route that ended without a failure still did not pass: its gates did not all run and pass, or it never
     * published. A route file decides the steps; it never decides that a run passed.
     */
    static List<Blocker> unproven(TransferRun run) {
        List<Blocker> out = new java.util.ArrayList<>(GateEvidence.problems(run));
        if (!run.published()) {
            out.add(Blocker.of(BlockerCode.RUN_NOT_PUBLISHED, run.plan().routeId(),
                "route '" + run.plan().routeId() + "' ended without publishing the run"));
        }
        return out;
    }

    static List<Blocker> blockersOf(Throwable t) {
        // a typed failure inside a split step arrives wrapped ("Multicast processing failed ..."): keep its blockers
        // and so does a server's refusal of a chunk's insert: its message, never Camel's exchange text
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof DponeException d) {
                return d.blockers();
            }
        }
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof ClickHouseQueryException) {
                return List.of(Blocker.of(BlockerCode.SINK_LOAD_FAILED, "sink",
                    "ClickHouse rejected a statement: " + Redactor.global().describe(c)));
            }
        }
        return List.of(Blocker.of(BlockerCode.INTERNAL_ERROR, "runtime", Redactor.global().describe(t)));
    }

    private static RunReport report(TransferRun run, List<Blocker> failures) {
        List<Blocker> blockers = failures.isEmpty() ? unproven(run) : failures;
        Instant end = Instant.now();
        RunPlan plan = run.plan();
        RunCounters counted = run.counters();
        long ms = Math.max(1, Duration.between(plan.startedAt(), end).toMillis());
        var m = plan.manifest();
        long sourceRows = run.sourceStats() != null ? run.sourceStats().rows() : 0;
        return new RunReport(RunReport.SCHEMA, plan.runId(), blockers.isEmpty(), plan.routeId(), m.name(),
            m.source().table().toString(), m.sink().table().toString(), sourceRows, counted.rows(), counted.bytes(),
            counted.chunks(), run.resumedAfterPublish(), run.gates(), blockers, counted.stepMillis(),
            plan.startedAt(), end, ms, counted.rows() * 1000 / ms, null, run.notes(),
            run.resumedStaging(), run.probes());
    }
}
