package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.error.DponeException;
import io.dpone.fleet.FleetReport;
import io.dpone.fleet.FleetRunner;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code dpone run DIR --run-id ID [--parallel N]}: the fleet of a directory's manifests in one process
 * ({@link FleetRunner}); progress across the fleet on stderr (one line per table), the fleet report
 * ({@code dpone.fleet_run.v1}) on stdout, exit 1 when any table did not pass.
 */
final class FleetRun {
    private FleetRun() {
    }

    static int run(Path input, String runId, int parallel, Format format, boolean quiet) {
        ConnectionContext ctx;
        FleetReport report;
        PrintStream err = System.err;
        boolean show = !quiet && format != Format.json;
        try {
            ctx = ConnectionContext.fromEnvironment();
            report = FleetRunner.run(new FleetRunner.Request(input, runId, parallel > 0 ? parallel
                : FleetRunner.defaultParallel(), ctx, EmbeddedDefaults.home()), new FleetRunner.Listener() {
                    @Override
                    public void started(String manifest, String tableRunId) {
                        if (show) {
                            err.println("fleet " + runId + ": " + manifest + " started (run " + tableRunId + ")");
                        }
                    }

                    @Override
                    public void finished(FleetReport.TableRun t, int done, int total, int running) {
                        if (show) {
                            err.println(String.format("fleet %s: [%d/%d] %s %s, %,d rows in %.1f s (%d running)",
                                runId, done, total, t.manifest(), t.status(), t.loadedRows(), t.durationMs() / 1000.0,
                                running) + (t.blockers().isEmpty() ? "" : ": " + t.blockers().get(0).code()));
                        }
                    }
                });
        } catch (DponeException e) {
            return Output.emit(false, Map.of("schema", FleetReport.SCHEMA, "run_id", runId, "passed", false,
                "blockers", e.blockers()), "fleet blocked:\n" + Output.blockersText(e.blockers()), format);
        }
        return Output.emit(report.passed(), report, text(report, input), format);
    }

    private static String text(FleetReport r, Path input) {
        FleetReport.Totals t = r.totals();
        StringBuilder sb = new StringBuilder();
        sb.append("fleet ").append(r.runId()).append(r.passed() ? " passed: " : " did not pass: ").append(t.passed())
            .append(" of ").append(t.tables()).append(" table(s) passed").append(t.carriedOver() > 0 ? " ("
                + t.carriedOver() + " in an earlier attempt)" : "").append(", ").append(t.failed()).append(" failed")
            .append(t.notRun() > 0 ? ", " + t.notRun() + " not run" : "")
            .append(String.format("; %,d rows in %.1f s, %d at a time%n", t.loadedRows(), r.durationMs() / 1000.0,
                r.parallel()));
        for (FleetReport.TableRun table : r.tables()) {
            if (!table.status().equals("passed")) {
                sb.append("  ").append(table.manifest()).append(": ").append(table.status()).append('\n');
                sb.append(Output.blockersText(table.blockers()).indent(2));
            }
        }
        if (!r.passed()) {
            sb.append("To run again only the tables that did not pass: dpone run ").append(input).append(" --run-id ")
                .append(r.runId()).append('\n');
        }
        return sb.toString();
    }
}
