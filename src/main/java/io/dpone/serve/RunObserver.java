package io.dpone.serve;

import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.route.RunReport;
import io.dpone.source.SourceTable;
import java.util.List;

/**
 * What serve tells about its jobs' runs and its streams' ticks as they happen: the status page's run history
 * ({@link StatusViews}) and the lineage events ({@link LineageObserver}) listen. Called on the run's thread; an observer
 * never fails a run (serve logs and drops what one throws).
 */
public interface RunObserver {
    RunObserver NONE = new RunObserver() { };

    /** A job's run {@code runId} starts (or resumes). */
    default void runStarting(ServeConfig.Job job, String runId) {
    }

    /** The run's source table was described (its columns and types). */
    default void runDescribed(ServeConfig.Job job, String runId, SourceTable table) {
    }

    /** The run ended with {@code report}. */
    default void runFinished(ServeConfig.Job job, RunReport report) {
    }

    /** The run was refused or crashed without a report ({@code failure}). */
    default void runFailed(ServeConfig.Job job, String runId, RuntimeException failure) {
    }

    /** A stream's tick starts; {@code tick} identifies it until {@link #tickFinished} (its run id comes with the report). */
    default void tickStarting(ServeConfig.CdcStream stream, java.util.UUID tick) {
    }

    /** The tick ended with {@code report}, or with {@code failure} when it threw before a report (report null). */
    default void tickFinished(ServeConfig.CdcStream stream, java.util.UUID tick, CdcRuntimeRunReport report,
                              RuntimeException failure) {
    }

    /** Every observer of {@code observers}, in order, each isolated from the others' failures. */
    static RunObserver all(List<RunObserver> observers) {
        return new RunObservers(List.copyOf(observers));
    }
}
