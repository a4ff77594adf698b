package io.dpone.serve;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.Redactor;
import io.dpone.error.DponeException;
import io.dpone.fleet.FleetReport;
import io.dpone.fleet.FleetRunner;
import io.dpone.manifest.BatchManifest;
import io.dpone.route.FullRefreshRunner;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduled fleet ({@code fleets:}): the body of its timer/quartz route ({@code dpone_fleet_<name>}) and of its
 * JMX {@code runNow}. Runs the directory's manifests as {@code dpone run DIR} does ({@link FleetRunner}) through
 * serve's own camel-main context and engine: a table whose target a job is loading waits for it, and a stop leaves
 * the tables not started as {@code not_run}. The run id is saved before the run ({@link JobState}), so the next
 * start of serve resumes a stopped fleet with the same id and runs only the tables that had not passed.
 */
public final class FleetJob implements Processor {
    private static final Logger LOG = LoggerFactory.getLogger(FleetJob.class);

    private final ServeConfig.Fleet fleet;
    private final FullRefreshRunner runner;
    private final ConnectionContext context;
    private final Path stateDir;
    private final JobState state;
    private final TargetLocks locks;
    private final ShutdownSignal signal;
    private final FleetStats stats;
    private final AtomicBoolean running = new AtomicBoolean();

    public FleetJob(ServeConfig.Fleet fleet, FullRefreshRunner runner, ConnectionContext context, Path stateDir,
                    JobState state, TargetLocks locks, ShutdownSignal signal) {
        this.fleet = fleet;
        this.runner = runner;
        this.context = context;
        this.stateDir = stateDir;
        this.state = state;
        this.locks = locks;
        this.signal = signal;
        this.stats = new FleetStats(fleet.name(), this::runOnce);
    }

    public FleetStats stats() {
        return stats;
    }

    @Override
    public void process(Exchange exchange) {
        exchange.getMessage().setBody(runOnce());
    }

    /** Runs the fleet once unless stopping or still running; returns passed, failed, interrupted, skipped_busy or stopping. */
    public String runOnce() {
        if (signal.stopping()) {
            return "stopping";
        }
        if (!running.compareAndSet(false, true)) {
            stats.skipped();
            LOG.warn("fleet {}: serve.run_skipped_busy: its previous run is still in flight; tick skipped ({} so far)",
                fleet.name(), stats.getSkippedOverlaps());
            return "skipped_busy";
        }
        String runId = null;
        try {
            var inFlight = state.inFlight(fleet.name());
            runId = inFlight.map(JobState.InFlight::runId).orElseGet(() -> RunIds.next(fleet.name()));
            state.begin(fleet.name(), runId);
            stats.running(runId);
            LOG.info("fleet {}: run {} {}", fleet.name(), runId, inFlight.isPresent() ? "resumed" : "started");
            FleetReport report = FleetRunner.run(new FleetRunner.Request(fleet.directory(), runId, fleet.parallel(),
                context, stateDir), listener(runId), runner, host(runId));
            boolean interrupted = !report.passed() && signal.stopping();
            if (!interrupted) {
                state.finish(fleet.name());
            }
            String status = report.passed() ? "passed" : interrupted ? "interrupted" : "failed";
            stats.record(runId, report, status);
            FleetReport.Totals t = report.totals();
            String line = "fleet {}: run {} {}: {} of {} tables passed ({} carried over), {} failed, {} not run, "
                + "{} rows in {} ms";
            Object[] args = {fleet.name(), runId, status, t.passed(), t.tables(), t.carriedOver(), t.failed(),
                t.notRun(), t.loadedRows(), report.durationMs()};
            if (report.passed()) {
                LOG.info(line, args);
            } else if (interrupted) {
                LOG.warn(line, args);
            } else {
                LOG.error(line, args);
            }
            return status;
        } catch (RuntimeException e) { // e.g. the directory lost its manifests since start-up
            LOG.error("fleet {}: {}", fleet.name(), Redactor.global().describe(e));
            if (runId != null && !(e instanceof DponeException && signal.stopping())) {
                state.finish(fleet.name());
            }
            stats.record(runId, null, "failed");
            return "failed";
        } finally {
            running.set(false);
        }
    }

    private FleetRunner.Listener listener(String runId) {
        return new FleetRunner.Listener() {
            @Override
            public void finished(FleetReport.TableRun table, int done, int total, int inFlight) {
                stats.progress(done, inFlight);
                LOG.info("fleet {}: run {}: [{}/{}] {} {}, {} rows in {} ms ({} running)", fleet.name(), runId, done,
                    total, table.manifest(), table.status(), table.loadedRows(), table.durationMs(), inFlight);
            }
        };
    }

    private FleetRunner.Host host(String runId) {
        return new FleetRunner.Host() {
            @Override
            public boolean lockTarget(String key) {
                return locks.acquireUnlessStopping(key, signal::stopping);
            }

            @Override
            public void unlockTarget(String key) {
                locks.release(key);
            }

            @Override
            public boolean stopping() {
                return signal.stopping();
            }

            @Override
            public String resume(FleetRunner.Request req) {
                return "fleet " + fleet.name() + "'s next run in dpone serve (a stopped run " + runId
                    + " resumes at the next start)";
            }

            @Override
            public String by() {
                return "dpone serve (fleet " + fleet.name() + ")";
            }

            @Override
            public BatchManifest prepare(BatchManifest manifest) {
                return manifest.withRetryFallback(fleet.retry());
            }
        };
    }
}
