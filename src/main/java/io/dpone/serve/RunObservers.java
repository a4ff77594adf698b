package io.dpone.serve;

import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.connect.Redactor;
import io.dpone.route.RunReport;
import io.dpone.source.SourceTable;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link RunObserver#all}: calls each observer in turn; what one throws is logged and never reaches the run. */
final class RunObservers implements RunObserver {
    private static final Logger LOG = LoggerFactory.getLogger(RunObservers.class);
    private final List<RunObserver> observers;

    RunObservers(List<RunObserver> observers) {
        this.observers = observers;
    }

    private void each(Consumer<RunObserver> call) {
        for (RunObserver o : observers) {
            try {
                call.accept(o);
            } catch (RuntimeException e) {
                LOG.warn("run observer {} failed: {}", o.getClass().getSimpleName(), Redactor.global().describe(e));
            }
        }
    }

    @Override
    public void runStarting(ServeConfig.Job job, String runId) {
        each(o -> o.runStarting(job, runId));
    }

    @Override
    public void runDescribed(ServeConfig.Job job, String runId, SourceTable table) {
        each(o -> o.runDescribed(job, runId, table));
    }

    @Override
    public void runFinished(ServeConfig.Job job, RunReport report) {
        each(o -> o.runFinished(job, report));
    }

    @Override
    public void runFailed(ServeConfig.Job job, String runId, RuntimeException failure) {
        each(o -> o.runFailed(job, runId, failure));
    }

    @Override
    public void tickStarting(ServeConfig.CdcStream stream, java.util.UUID tick) {
        each(o -> o.tickStarting(stream, tick));
    }

    @Override
    public void tickFinished(ServeConfig.CdcStream stream, java.util.UUID tick, CdcRuntimeRunReport report,
                             RuntimeException failure) {
        each(o -> o.tickFinished(stream, tick, report, failure));
    }
}
