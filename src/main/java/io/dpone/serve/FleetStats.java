package io.dpone.serve;

import io.dpone.fleet.FleetReport;
import java.util.function.Supplier;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;

/**
 * A scheduled fleet's figures ({@code io.dpone:type=fleets,name=<name>}, and {@code dpone_fleet_*} in
 * {@code /observe/metrics}): runs, the last run's table counts and duration, the run in flight's progress, and the
 * run-now operation. Written by the fleet's one run at a time, read by JMX and the metrics scrape.
 */
@ManagedResource(description = "dpone scheduled fleet: statistics and a run-now operation")
public class FleetStats {
    private final String name;
    private final Supplier<String> trigger;
    private long runs;
    private long failedRuns;
    private long skippedOverlaps;
    private String lastStatus = "none";
    private String lastRunId;
    private int lastTables;
    private int lastPassedTables;
    private int lastFailedTables;
    private int lastNotRunTables;
    private long lastRows;
    private long lastDurationMs;
    private long lastSuccessEpochSeconds;
    private String inFlightRunId;
    private int inFlightTablesDone;
    private int inFlightTablesRunning;

    public FleetStats(String name, Supplier<String> trigger) {
        this.name = name;
        this.trigger = trigger;
    }

    @ManagedOperation(description = "Run the fleet now on the caller's thread; returns passed, failed, skipped_busy or stopping")
    public String runNow() {
        return trigger.get();
    }

    synchronized void running(String runId) {
        inFlightRunId = runId;
        inFlightTablesDone = 0;
        inFlightTablesRunning = 0;
    }

    synchronized void progress(int done, int running) {
        inFlightTablesDone = done;
        inFlightTablesRunning = running;
    }

    synchronized void skipped() {
        skippedOverlaps++;
    }

    /** A finished run: its report, or null when it failed before it had one. */
    synchronized void record(String runId, FleetReport report, String status) {
        runs++;
        lastStatus = status;
        lastRunId = runId;
        inFlightRunId = null;
        inFlightTablesDone = 0;
        inFlightTablesRunning = 0;
        if (!"passed".equals(status)) {
            failedRuns++;
        } else {
            lastSuccessEpochSeconds = java.time.Instant.now().getEpochSecond();
        }
        if (report != null) {
            lastTables = report.totals().tables();
            lastPassedTables = report.totals().passed();
            lastFailedTables = report.totals().failed();
            lastNotRunTables = report.totals().notRun();
            lastRows = report.totals().loadedRows();
            lastDurationMs = report.durationMs();
        }
    }

    @ManagedAttribute(description = "The fleet's name in the serve configuration")
    public String getName() {
        return name;
    }

    @ManagedAttribute(description = "Finished runs of the fleet")
    public synchronized long getRuns() {
        return runs;
    }

    @ManagedAttribute(description = "Finished runs in which a table did not pass")
    public synchronized long getFailedRuns() {
        return failedRuns;
    }

    @ManagedAttribute(description = "Ticks skipped because the fleet's previous run was still in flight")
    public synchronized long getSkippedOverlaps() {
        return skippedOverlaps;
    }

    @ManagedAttribute(description = "passed, failed, interrupted, or none before the first run")
    public synchronized String getLastStatus() {
        return lastStatus;
    }

    @ManagedAttribute(description = "The last finished run's id (its report: <state_dir>/fleet/<id>/fleet_run.json)")
    public synchronized String getLastRunId() {
        return lastRunId;
    }

    @ManagedAttribute(description = "Tables of the last finished run")
    public synchronized int getLastTables() {
        return lastTables;
    }

    @ManagedAttribute(description = "Tables that passed in the last finished run (carried over ones included)")
    public synchronized int getLastPassedTables() {
        return lastPassedTables;
    }

    @ManagedAttribute(description = "Tables that failed in the last finished run")
    public synchronized int getLastFailedTables() {
        return lastFailedTables;
    }

    @ManagedAttribute(description = "Tables the last finished run did not start (it was stopping)")
    public synchronized int getLastNotRunTables() {
        return lastNotRunTables;
    }

    @ManagedAttribute(description = "Rows loaded by the last finished run's tables")
    public synchronized long getLastRows() {
        return lastRows;
    }

    @ManagedAttribute(description = "Wall time of the last finished run in ms")
    public synchronized long getLastDurationMs() {
        return lastDurationMs;
    }

    @ManagedAttribute(description = "Unix time the last passing run ended (0 before the first)")
    public synchronized long getLastSuccessEpochSeconds() {
        return lastSuccessEpochSeconds;
    }

    @ManagedAttribute(description = "The run in flight's id, or null when idle")
    public synchronized String getInFlightRunId() {
        return inFlightRunId;
    }

    @ManagedAttribute(description = "Tables the run in flight has finished")
    public synchronized int getInFlightTablesDone() {
        return inFlightTablesDone;
    }

    @ManagedAttribute(description = "Tables the run in flight is loading now")
    public synchronized int getInFlightTablesRunning() {
        return inFlightTablesRunning;
    }
}
