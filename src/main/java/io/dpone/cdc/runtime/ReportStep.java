package io.dpone.cdc.runtime;

/** Step 6: build the report and write {@code cdc_runtime_run.json} and {@code cdc_runtime_run.md}. Always runs. */
public final class ReportStep extends CdcStep {
    public ReportStep() {
        super("report");
    }

    @Override
    protected boolean runsWhenHalted() {
        return true;
    }

    @Override
    protected void run(CdcTick tick) {
        if (!tick.halted() && tick.batch() != null) {
            tick.lagMeasured(tick.adapters().reader().millisBehindSource(tick.offsetAfter().orElse(null),
                tick.batch().highWatermark()).orElse(-1));
        }
        CdcReports.write(tick);
    }
}
