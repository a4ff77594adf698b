package io.dpone.cdc.runtime;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcTickFence;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.camel.DponeCamel;
import java.util.List;
import org.apache.camel.CamelExecutionException;

/**
 * Sends a tick through the {@code cdc_runtime_tick} route of the camel-main context and returns its report.
 * A failure that escapes the route (a crash inside a step, a context that cannot start) still yields a red report
 * with {@code runtime.internal_error}; whatever the steps had not committed stays uncommitted.
 */
public final class CdcTickRunner {
    public static final String ROUTE_ID = "cdc_runtime_tick";

    private CdcTickRunner() {
    }

    /** Starts the shared camel-main context, runs the tick, stops the context. */
    public static CdcRuntimeRunReport run(CdcTick tick) {
        DponeCamel camel;
        try {
            camel = DponeCamel.start(null, false);
        } catch (RuntimeException e) {
            return failed(tick, e);
        }
        try (camel) {
            return run(camel, tick);
        }
    }

    /**
     * Runs the tick in an already started context (tests weave crash points into it), holding the stream's
     * {@link io.dpone.cdc.CdcTickFence} from before the offset is loaded until the report is written. A tick that
     * finds the fence held reads, applies and writes nothing: its report (with {@code cdc_runtime.offset_conflict})
     * is returned, not written into the output directory the other tick owns.
     */
    public static CdcRuntimeRunReport run(DponeCamel camel, CdcTick tick) {
        tick.markStarted();
        CdcTickFence.Held fence;
        try {
            fence = tick.adapters().fence().acquire(tick.stream());
        } catch (DponeException e) {
            tick.fenceLost();
            tick.block(e.blockers());
            return CdcReports.build(tick);
        }
        try (fence) {
            try {
                camel.call(ROUTE_ID, tick);
            } catch (RuntimeException e) {
                return failed(tick, e);
            }
            return tick.report() != null ? tick.report() : CdcReports.write(tick);
        }
    }

    /**
     * A tick refused before it ran (a {@code serve} stream's {@code approved_bundle} no longer matching): its red
     * report with {@code blockers}; nothing was read, applied or committed, and no report file is written.
     */
    public static CdcRuntimeRunReport refused(CdcTick tick, List<Blocker> blockers) {
        tick.markStarted();
        tick.block(blockers);
        return CdcReports.build(tick);
    }

    private static CdcRuntimeRunReport failed(CdcTick tick, Throwable e) {
        Throwable cause = e instanceof CamelExecutionException && e.getCause() != null ? e.getCause() : e;
        List<Blocker> blockers = cause instanceof DponeException typed ? typed.blockers()
            : List.of(CdcBlockers.blocker(BlockerCode.INTERNAL_ERROR.code(), CdcTickRunner.ROUTE_ID,
                "the tick stopped unexpectedly: " + Redactor.global().describe(cause)
                    + (tick.committed() ? " (after the offset was committed)" : "; the offset was not committed")));
        tick.block(blockers);
        try {
            return CdcReports.write(tick);
        } catch (RuntimeException writeFailure) {
            return CdcReports.build(tick);
        }
    }
}
