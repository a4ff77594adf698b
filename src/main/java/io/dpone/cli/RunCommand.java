package io.dpone.cli;

import io.dpone.Dpone;
import io.dpone.connect.ConnectionContext;
import io.dpone.error.DponeException;
import io.dpone.route.RunReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dpone run MANIFEST --run-id ID}: one staging-first full refresh with quality gates. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a batch manifest: staging-first full refresh with quality gates.")
public final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "MANIFEST", description = "The batch manifest (YAML) to run.")
    Path manifest;

    @Option(names = "--run-id", required = true, description = "Scheduler operation id; reuse it to resume.")
    String runId;

    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @Override
    public Integer call() {
        RunReport report;
        io.dpone.watchdog.PhaseWatchdog.runDirectory(io.dpone.connect.EmbeddedDefaults.home().resolve("runs"));
        try (StderrProgress progress = StderrProgress.onStderr(quiet, format)) {
            ConnectionContext ctx;
            try {
                ctx = ConnectionContext.fromEnvironment();
            } catch (DponeException e) {
                return Output.emit(false, java.util.Map.of("schema", RunReport.SCHEMA, "run_id", runId,
                    "passed", false, "blockers", e.blockers()), "run blocked:\n" + Output.blockersText(e.blockers()),
                    format);
            }
            report = Dpone.run(manifest, runId, ctx, progress);
        }
        return Output.emit(report.passed(), report, text(report), format);
    }

    private static String text(RunReport r) {
        if (!r.passed()) {
            return "run " + r.runId() + " failed:\n" + Output.blockersText(r.blockers());
        }
        StringBuilder sb = new StringBuilder();
        if (r.publication() != null) {
            var p = r.publication();
            sb.append("run ").append(r.runId()).append(" published ").append(r.targetTable()).append(" (")
                .append(p.mode()).append(", ").append(p.members().size()).append(" members, generation ")
                .append(p.receipt().generationId()).append(", ").append(r.loadedRows()).append(" rows)\n")
                .append("  receipt ").append(p.receipt().schema()).append(": ").append(p.receipt().evidenceStatus())
                .append(p.cleanupComplete() ? "" : "; cleanup outstanding, rerun the same run id").append('\n');
            return sb.toString();
        }
        sb.append("run ").append(r.runId()).append(" passed: ").append(r.sourceTable()).append(" -> ")
            .append(r.targetTable()).append(" via ").append(r.routeId()).append('\n');
        sb.append("  rows ").append(r.loadedRows()).append(" in ").append(r.durationMs()).append(" ms (")
            .append(r.rowsPerSecond()).append(" rows/s)").append(r.resumedAfterPublish() ? ", resumed" : "")
            .append('\n');
        r.gates().forEach(g -> sb.append("  gate ").append(g.gate()).append(": ").append(g.status()).append('\n'));
        return sb.toString();
    }
}
