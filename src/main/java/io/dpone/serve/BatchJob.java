package io.dpone.serve;

import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduled full refresh: the body of a job's timer/quartz route and of its JMX {@code runNow}. Skips (and
 * counts) a tick when the process is stopping or the target table is busy; resumes the job's in-flight run id
 * from {@link JobState} when the last process stopped mid-run; otherwise starts a new run id.
 */
public final class BatchJob implements Processor {
    private static final Logger LOG = LoggerFactory.getLogger(BatchJob.class);

    private final ServeConfig.Job job;
    private final FullRefreshRunner runner;
    private final JobState state;
    private final TargetLocks locks;
    private final ShutdownSignal signal;
    private final JobStats stats;
    private final Function<String, TransferStats> routeStats;
    private final RunObserver observer;

    public BatchJob(ServeConfig.Job job, FullRefreshRunner runner, JobState state, TargetLocks locks,
                    ShutdownSignal signal, Function<String, TransferStats> routeStats) {
        this(job, runner, state, locks, signal, routeStats, RunObserver.NONE);
    }

    /** As above, telling {@code observer} (the status page's history, lineage) about each run. */
    public BatchJob(ServeConfig.Job job, FullRefreshRunner runner, JobState state, TargetLocks locks,
                    ShutdownSignal signal, Function<String, TransferStats> routeStats, RunObserver observer) {
        this.observer = observer;
        this.job = job;
        this.runner = runner;
        this.state = state;
        this.locks = locks;
        this.signal = signal;
        this.routeStats = routeStats;
        this.stats = new JobStats(job.name(), this::runOnce);
    }

    public JobStats stats() {
        return stats;
    }

    /** What this job was configured with. */
    public ServeConfig.Job config() {
        return job;
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(runOnce());
    }

    /**
     * A run that failed while the process was stopping was stopped by the shutdown, whichever step it was in (a
     * chunk boundary reports {@code serve.shutdown_interrupted} itself; a step cut short by the stopping context
     * fails otherwise): it is reported as {@code serve.shutdown_interrupted}, not as a failure, with the codes it
     * stopped on in the details, and the next start resumes its run id.
     */
    static RunReport stoppedByShutdown(RunReport r) {
        String code = BlockerCode.SERVE_SHUTDOWN_INTERRUPTED.code();
        if (r.blockers().stream().anyMatch(b -> b.code().equals(code))) {
            return r;
        }
        return r.withBlockers(List.of(Blocker.of(BlockerCode.SERVE_SHUTDOWN_INTERRUPTED, "serve",
            "the process is stopping; the run stopped and resumes with the same run id at the next start",
            Map.of("stopped_on", r.blockers().stream().map(Blocker::code).distinct().toList()))));
    }

    /** The job's in-flight figures (JMX, metrics), and one INFO line per chunk in the pod's log. */
    private ProgressListener progress(String runId) {
        ProgressListener figures = stats.progress();
        return new ProgressListener() {
            @Override
            public void rowsRead(long rows) {
                figures.rowsRead(rows);
            }

            @Override
            public void rowsExpected(long rows) {
                figures.rowsExpected(rows);
            }

            @Override
            public void chunkDone(int chunks) {
                figures.chunkDone(chunks);
                long expected = stats.getInFlightExpectedRows();
                LOG.info("job {}: run {}: chunk {} done, {} rows read{}", job.name(), runId, chunks,
                    stats.getInFlightRowsScanned(), expected > 0 ? " of about " + expected : "");
            }

            @Override
            public void phase(String step) {
                figures.phase(step);
            }

            @Override
            public void described(io.dpone.source.SourceTable table) {
                observer.runDescribed(job, runId, table);
            }
        };
    }

    /** Runs the job once unless stopping or busy; returns passed, failed, interrupted, skipped_busy or stopping. */
    public String runOnce() {
        if (signal.stopping()) {
            return "stopping";
        }
        if (!locks.tryAcquire(job.targetKey())) {
            stats.skipped();
            LOG.warn("job {}: serve.run_skipped_busy: another run of {} is in flight; tick skipped ({} so far)",
                job.name(), job.manifest().sink().table(), stats.getSkippedOverlaps());
            return "skipped_busy";
        }
        String runId = null;
        try {
            var inFlight = state.inFlight(job.name());
            runId = inFlight.map(JobState.InFlight::runId).orElseGet(() -> RunIds.next(job.name()));
            state.begin(job.name(), runId);
            stats.running(runId);
            observer.runStarting(job, runId);
            LOG.info("job {}: run {} {}", job.name(), runId, inFlight.isPresent() ? "resumed" : "started");
            RunReport r = runner.run(job.manifest(), runId, progress(runId)); // the full_refresh route
            // the job state is settled before the run is counted, so whoever sees the count sees the settled state
            boolean interrupted = !r.passed() && signal.stopping();
            if (interrupted) {
                r = stoppedByShutdown(r);
            }
            if (!interrupted) {
                state.finish(job.name());
            }
            // for dpone runs, next to the run's evidence journal in the state directory
            io.dpone.route.RunRecords.record(runner.workDir(), r.passed() ? "passed" : interrupted ? "interrupted"
                : "failed", r, interrupted ? "the next start of dpone serve resumes it (job " + job.name() + ")"
                : "job " + job.name() + "'s next scheduled run in dpone serve", "dpone serve (job " + job.name() + ")");
            stats.record(r);
            if (r.routeId() != null) {
                routeStats.apply(r.routeId()).record(r);
            }
            observer.runFinished(job, r);
            String blockers = r.blockers().isEmpty() ? "" : " " + Redactor.global().redact(r.blockers().stream()
                .map(b -> b.code() + " at " + b.subject() + ": " + b.message()).toList().toString());
            if (r.passed()) {
                String kept = r.resumedStaging() == null ? "" : " (resumed: " + r.resumedStaging().rowsKept()
                    + " rows in " + r.resumedStaging().chunksKept() + " chunks kept from the stopped attempt)";
                LOG.info("job {}: run {} {}: {} rows, {} chunks in {} ms{}{}", job.name(), runId,
                    stats.getLastStatus(), r.loadedRows(), r.chunks(), r.durationMs(), kept, blockers);
            } else if (interrupted) { // SIGTERM: the next start resumes the same run id
                LOG.warn("job {}: run {} {}: {} rows, {} chunks in {} ms{}", job.name(), runId,
                    stats.getLastStatus(), r.loadedRows(), r.chunks(), r.durationMs(), blockers);
            } else {
                LOG.error("job {}: run {} {}: {} rows, {} chunks in {} ms{}", job.name(), runId,
                    stats.getLastStatus(), r.loadedRows(), r.chunks(), r.durationMs(), blockers);
            }
            return stats.getLastStatus();
        } catch (RuntimeException e) {
            LOG.error("job {}: {}", job.name(), Redactor.global().describe(e));
            if (runId != null) {
                observer.runFailed(job, runId, e);
            }
            return "failed";
        } finally {
            stats.running(null);
            locks.release(job.targetKey());
        }
    }
}
