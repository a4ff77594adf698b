package io.dpone.route;

import io.dpone.camel.FullRefreshProperties;
import io.dpone.camel.RunRequest;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.ManifestOptions;
import io.dpone.manifest.RunId;
import io.dpone.publication.runtime.ClusterPublicationJob;
import io.dpone.publication.runtime.ClusterPublicationRunner;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The run's steps of the {@code full_refresh} route ({@code routes/full_refresh.yaml}), one job each: the
 * local/cluster decision, the cluster publication job around {@code cluster_publication}, the transfer run around
 * its transfer route, and the report. The CDC hand-over's steps are {@code io.dpone.cdc.handover}'s.
 */
final class FullRefreshSteps {
    /** Where the failures of the run's transfer route are kept for its report (a {@code List<Blocker>}). */
    static final String RUN_FAILURES = "dponeRunFailures";
    /** The cluster publication job, which {@code close_cluster_job} closes. */
    static final String CLUSTER_JOB = "dponeClusterJob";

    private FullRefreshSteps() {
    }

    private static RunRequest request(Exchange e) {
        return e.getProperty(FullRefreshProperties.REQUEST, RunRequest.class);
    }

    /**
     * Step {@code decide_publication}: {@code cluster} when the manifest requests a cluster publication (the one
     * place a run is dispatched there; a requested cluster publication never falls back to a local route), else
     * {@code local}. A route trial is always local.
     */
    static final class DecidePublication implements Processor {
        @Override
        public void process(Exchange e) {
            RunRequest r = request(e);
            e.setProperty(FullRefreshProperties.PUBLICATION,
                !r.routeTrial() && ClusterPublicationRunner.requested(r.manifest()) ? "cluster" : "local");
        }
    }

    /** Step {@code cluster_job}: the publication job becomes the body {@code cluster_publication} works on. */
    static final class OpenClusterJob implements Processor {
        @Override
        public void process(Exchange e) {
            RunRequest r = request(e);
            ClusterPublicationJob job = ClusterPublicationJob.of(r.manifest(), r.runId(), r.context(), System::getenv);
            e.setProperty(CLUSTER_JOB, job);
            e.getIn().setBody(job);
        }
    }

    /** Steps {@code cluster_report} and {@code cluster_refused_report}: the job's result, with a refusal's blockers. */
    static final class ClusterReport implements Processor {
        @Override
        public void process(Exchange e) {
            ClusterPublicationJob job = e.getProperty(CLUSTER_JOB, ClusterPublicationJob.class);
            Throwable refused = e.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
            if (refused != null && !(refused instanceof DponeException)) { // only wrapping one: a crash, the caller's
                throw refused instanceof RuntimeException r ? r : new IllegalStateException(refused);
            }
            List<Blocker> blockers = refused instanceof DponeException d ? d.blockers() : List.of();
            RunReport report = RunReport.ofCluster(job.result(blockers));
            e.setProperty(FullRefreshProperties.RUN_PASSED, report.passed());
            e.getIn().setBody(report);
        }
    }

    /** Step {@code close_cluster_job}, whatever happened. */
    static final class CloseClusterJob implements Processor {
        @Override
        public void process(Exchange e) {
            ClusterPublicationJob job = e.getProperty(CLUSTER_JOB, ClusterPublicationJob.class);
            if (job != null) {
                job.close();
            }
        }
    }

    /**
     * Step {@code plan_run}: checks the run id, the manifest's route (available in this runtime, not excluded by the
     * manifest's options, its bulk mode possible), then makes the run ({@link TransferRun}) the body the transfer
     * route works on. A refusal here is thrown to the caller before anything is opened.
     */
    static final class PlanRun implements Processor {
        @Override
        public void process(Exchange e) {
            RunRequest r = request(e);
            if (!RunId.valid(r.runId())) {
                throw new DponeException(BlockerCode.RUN_ID_INVALID, "--run-id", RunId.RULE);
            }
            String routeId = r.manifest().sink().options().route();
            BulkMode.require(r.manifest(), r.context());
            ManifestOptions.excluded(r.manifest(), routeId).ifPresent(b -> {
                throw new DponeException(b);
            });
            if (e.getContext().getRoute(routeId) == null || List.of("full_refresh", "cluster_publication",
                    "cdc_runtime_tick").contains(routeId)) {
                throw new DponeException(BlockerCode.RUN_ROUTE_UNAVAILABLE, "sink.options.route",
                    "route '" + routeId + "' is not available in this runtime");
            }
            ProgressListener progress = e.getProperty(FullRefreshProperties.PROGRESS, ProgressListener.NONE,
                ProgressListener.class);
            TransferRun run = new TransferRun(RunPlan.of(r.manifest(), r.runId(), r.context(), r.workDir(), progress,
                routeId, r.rowLimit(), RunConnectors.of(e.getContext())));
            e.setProperty(RouteProperties.RUN, run);
            e.setProperty(FullRefreshProperties.TRANSFER_ROUTE, routeId);
            e.getIn().setBody(run);
        }
    }

    /** Step {@code record_failure}: the transfer route failed; its blockers are kept for the report. */
    static final class RecordRunFailure implements Processor {
        @Override
        public void process(Exchange e) {
            Throwable failure = e.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
            e.setProperty(RUN_FAILURES, FullRefreshRunner.blockersOf(failure));
        }
    }

    /** Step {@code close_run}: the run's resources are closed, once, whatever happened (this route opened the run). */
    static final class CloseRun implements Processor {
        @Override
        public void process(Exchange e) {
            e.getProperty(RouteProperties.RUN, TransferRun.class).resources().close();
        }
    }

    /**
     * Step {@code run_report}: the run's report: the transfer route's failures, or, when it ended without one, why it
     * still did not pass (gates missing, never published).
     */
    static final class Report implements Processor {
        @Override
        public void process(Exchange e) {
            @SuppressWarnings("unchecked")
            List<Blocker> failures = e.getProperty(RUN_FAILURES, List.of(), List.class);
            RunReport report = FullRefreshRunner.report(e.getProperty(RouteProperties.RUN, TransferRun.class),
                failures);
            e.setProperty(FullRefreshProperties.RUN_PASSED, report.passed());
            e.getIn().setBody(report);
        }
    }

    /** Step {@code finish}: the hand-over's outcome, when there was one, goes into the report. */
    static final class Finish implements Processor {
        @Override
        public void process(Exchange e) {
            RunReport report = e.getIn().getBody(RunReport.class);
            @SuppressWarnings("unchecked")
            List<Blocker> refused = e.getProperty(FullRefreshProperties.HANDOVER_BLOCKERS, List.class);
            String note = e.getProperty(FullRefreshProperties.HANDOVER_NOTE, String.class);
            if (refused != null) {
                report = report.withBlockers(refused);
            } else if (note != null) {
                report = report.withNote(note);
            }
            e.getIn().setBody(report);
        }
    }
}
