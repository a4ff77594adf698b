package io.dpone.route;

import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.BatchManifest;
import io.dpone.camel.DponeCamel;
import io.dpone.camel.FullRefreshProperties;
import io.dpone.camel.RunRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.camel.Exchange;

/**
 * Runs one full refresh through the {@code full_refresh} route ({@code routes/full_refresh.yaml}: the CDC hand-over
 * position, the local/cluster choice, the transfer route or {@code cluster_publication}, the report, the hand-over
 * commit), the one entry of every caller (CLI, Java API, serve jobs, certification), and returns its
 * {@link RunReport}. Never throws for a run failure: the report carries the blockers. A refusal before the run (an
 * invalid run id, a route this runtime lacks, a hand-over that cannot read its position) is thrown, typed.
 */
public final class FullRefreshRunner {
    public static final String ROUTE_ID = "full_refresh";

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
     * Runs {@code manifest}: through {@code cluster_publication} when it requests a cluster publication, otherwise
     * through its transfer route; with the CDC hand-over when it declares a {@code cdc} block.
     */
    public RunReport run(BatchManifest manifest, String runId, ProgressListener progress) {
        return enter(new RunRequest(manifest, runId, context, workDir, 0, false), progress);
    }

    /**
     * A route trial: {@code manifest} through its transfer route only (no cluster publication, no hand-over), reading
     * at most {@code rowLimit} rows (0: all).
     */
    public RunReport run(BatchManifest manifest, String runId, ProgressListener progress, long rowLimit) {
        return enter(new RunRequest(manifest, runId, context, workDir, rowLimit, true), progress);
    }

    private RunReport enter(RunRequest request, ProgressListener progress) {
        Exchange done = camel.send(ROUTE_ID, e -> {
            e.getIn().setBody(request);
            e.setProperty(FullRefreshProperties.REQUEST, request);
            e.setProperty(FullRefreshProperties.PROGRESS, progress);
        });
        Exception failed = done.getException();
        if (failed != null) { // a refusal before the run, or a crash the report cannot hold
            throw failed instanceof RuntimeException r ? r : new IllegalStateException(failed);
        }
        return done.getMessage().getBody(RunReport.class);
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

    static RunReport report(TransferRun run, List<Blocker> failures) {
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
            run.resumedStaging(), run.probes(), run.retries().tally());
    }
}
