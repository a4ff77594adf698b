package io.dpone.cli;

import io.dpone.Dpone;
import io.dpone.connect.ConnectionContext;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.route.RunReport;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dpone run MANIFEST --run-id ID}: one staging-first full refresh with quality gates; given a directory of
 * manifests (or a discover {@code catalog.json}), the whole fleet in this process ({@link FleetRun}).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a batch manifest: staging-first full refresh with quality gates. Given a directory of "
        + "manifests (dpone discover's output), run every table in one process; the same --run-id reruns only the "
        + "tables that did not pass.")
public final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "MANIFEST", description = "The batch manifest (YAML) to run, or a directory "
        + "of *.batch.yaml manifests (or its manifests/ directory, or its catalog.json): a fleet.")
    Path manifest;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--parallel", paramLabel = "N", description = "A fleet's tables run at most N at a time "
        + "(default: the machine's processors, 2 to 8).")
    int parallel;

    @Option(names = "--run-id", required = true, description = "Scheduler operation id; reuse it to resume.")
    String runId;

    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @Override
    public Integer call() {
        boolean fleet = io.dpone.fleet.FleetRunner.isFleet(manifest);
        if (parallel != 0 && (!fleet || parallel < 1 || parallel > 64)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), fleet
                ? "--parallel must be 1..64" : "--parallel applies to a fleet (a directory of manifests) only");
        }
        if (fleet) {
            io.dpone.watchdog.PhaseWatchdog.runDirectory(io.dpone.connect.EmbeddedDefaults.home().resolve("runs"));
            return FleetRun.run(manifest, runId, parallel, format, quiet);
        }
        RunReport report;
        long rowsRead;
        int chunks;
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
            rowsRead = progress.rows();
            chunks = progress.chunks();
        }
        if (!report.passed() && io.dpone.route.ProcessShutdown.inProgress()) {
            // stopped by a signal: whatever failed on the way down (the source's connection closed by its own
            // shutdown hook, ...) is the stop, not a second failure; one report says what stopped and what is kept
            report = report.withBlockers(List.of(interrupted(report, rowsRead, chunks)));
            DponeCli.interruptReported();
            record("interrupted", report);
            return Output.emit(false, report, interruptedText(report), format);
        }
        record(report.passed() ? "passed" : "failed", report);
        return Output.emit(report.passed(), report, text(report), format);
    }

    /**
     * Leaves the run's record for {@code dpone runs} with the CLI's own resume command and, for a stop, the
     * interrupted report ({@code Dpone.run} recorded the run already; this refines it); a record that cannot be
     * written never fails the run.
     */
    private void record(String status, RunReport report) {
        try {
            io.dpone.route.RunRecords.save(io.dpone.connect.EmbeddedDefaults.home(), status, report, resumeCommand(),
                "dpone run");
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(RunCommand.class).debug("run record not written", e);
        }
    }

    /** The command that resumes this run: the same manifest (as given) and run id. */
    String resumeCommand() {
        return "dpone run " + shellWord(manifest.toString()) + " --run-id " + shellWord(runId)
            + (format == Format.json ? " --format json" : "");
    }

    private static String shellWord(String word) {
        return word.matches("[A-Za-z0-9_./:@%+=,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    private Blocker interrupted(RunReport r, long rowsRead, int chunks) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("rows_read", rowsRead);
        details.put("chunks_loaded", chunks);
        details.put("resume_command", resumeCommand());
        details.put("stopped_by", r.blockers().isEmpty() ? "signal" : "signal (then " + r.blockers().get(0).code()
            + " while stopping)");
        return Blocker.of(BlockerCode.INTERRUPTED, "runtime", "run " + r.runId() + " was stopped by a signal; "
            + "nothing was published" + (r.targetTable() == null ? "" : " (" + r.targetTable() + " is unchanged)")
            + "; the staging table keeps the " + chunks + " chunk(s) loaded so far for the resume", details);
    }

    /** One paragraph: what stopped, what is kept, the exact command to resume. */
    private String interruptedText(RunReport r) {
        Blocker b = r.blockers().get(0);
        long chunks = ((Number) b.details().get("chunks_loaded")).longValue();
        long rows = ((Number) b.details().get("rows_read")).longValue();
        return "run " + r.runId() + " stopped by a signal"
            + (r.sourceTable() == null ? "" : " while loading " + r.sourceTable() + " into " + r.targetTable())
            + String.format(" (%,d rows read, %d chunk(s) loaded). ", rows, chunks)
            + "Nothing was published" + (r.targetTable() == null ? "" : ": " + r.targetTable() + " is unchanged")
            + ". The chunks already in the staging table are kept for the resume.\n"
            + "To resume: " + resumeCommand() + "\n";
    }

    private static String text(RunReport r) {
        if (!r.passed()) {
            return "run " + r.runId() + " failed:\n" + Output.blockersText(r.blockers()) + retriesText(r);
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
        if (r.resumedStaging() != null) {
            // loaded_rows counts this attempt's rows; the kept ones came from the interrupted attempt
            sb.append(String.format("  resumed: %,d rows in %d chunk(s) kept from the interrupted attempt, %,d loaded "
                + "now%n", r.resumedStaging().rowsKept(), r.resumedStaging().chunksKept(), r.loadedRows()));
        }
        r.gates().forEach(g -> sb.append("  gate ").append(g.gate()).append(": ").append(g.status()).append('\n'));
        return sb.append(retriesText(r)).toString();
    }

    /** The run's transient-fault retries per operation kind (issue 35), when it retried any. */
    static String retriesText(RunReport r) {
        if (r.retries() == null || r.retries().retries() == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder("  retries ").append(r.retries().retries()).append(" of ")
            .append(r.retries().maxRetries()).append(" (").append(r.retries().spentMillis()).append(" ms):");
        r.retries().byKind().forEach((k, v) -> sb.append(' ').append(k).append(' ').append(v));
        return sb.append(r.retries().budgetExhausted() ? ", budget spent" : "").append('\n').toString();
    }
}
