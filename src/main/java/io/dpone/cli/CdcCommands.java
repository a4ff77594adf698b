package io.dpone.cli;

import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.error.DponeException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpone ops ...}: operational commands. */
@Command(name = "ops", mixinStandardHelpOptions = true,
    description = "Operational commands (CDC runtime, ClickHouse CDC materialization).",
    subcommands = {CdcCommands.CdcRuntimeRun.class, MaterializeCommand.class, VerifyCommand.class, CleanupCommand.class,
        CdcPromotionBundleCommand.class})
public final class CdcCommands implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    /** {@code dpone ops cdc-runtime-run}: one bounded CDC runtime tick. */
    @Command(name = "cdc-runtime-run", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Run one bounded CDC tick: checkpoint -> read -> idempotency -> apply -> commit -> report.")
    public static final class CdcRuntimeRun implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--mode", defaultValue = "local", description = "local or live (default: ${DEFAULT-VALUE})")
        CdcMode mode;
        @CommandLine.Mixin
        CdcStreamOptions stream;
        @CommandLine.Mixin
        CdcRetryOptions retry;
        @Option(names = "--events-json", description = "local mode: the bounded CDC batch to apply")
        Path eventsJson;
        @Option(names = "--checkpoint-json", description = "local mode: the durable offset checkpoint")
        Path checkpointJson;
        @Option(names = "--output-dir", description = "report and local sink directory")
        Path outputDir;
        @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
        Format format;
        @Option(names = "--source-connection-id", description = "live mode: source connection alias")
        String sourceConnectionId;
        @Option(names = "--sink-connection-id", description = "live mode: sink connection alias")
        String sinkConnectionId;
        @Option(names = "--require-approved-bundle", paramLabel = "DIR", description = "live mode: refuse to read "
            + "unless the promotion bundle approved in DIR still matches the stream and its source")
        Path approvedBundle;
        @Option(names = "--allow-capture-instance-ddl", description = "live mssql_cdc: when a table's capture "
            + "instance no longer matches the table (a column added, dropped or retyped) and it has no later one, "
            + "create its second capture instance (sys.sp_cdc_enable_table, needs db_owner) and hand over to it")
        boolean allowCaptureInstanceDdl;

        @Override
        public Integer call() {
            if (mode == CdcMode.local) {
                for (Object[] o : new Object[][] {{"--events-json", eventsJson}, {"--checkpoint-json", checkpointJson},
                    {"--output-dir", outputDir}}) {
                    if (o[1] == null) {
                        throw new CommandLine.ParameterException(spec.commandLine(),
                            "Missing required option: '" + o[0] + "' (required with --mode local)");
                    }
                }
            }
            io.dpone.watchdog.PhaseWatchdog.runDirectory(outputDir);
            CdcRunOptions options = stream.builder(mode).eventsJson(eventsJson).checkpointJson(checkpointJson)
                .outputDir(outputDir).connections(sourceConnectionId, sinkConnectionId).retry(retry.settings())
                .allowCaptureInstanceDdl(allowCaptureInstanceDdl).build();
            CdcRuntimeRunReport report;
            try {
                if (approvedBundle != null) {
                    var context = io.dpone.connect.ConnectionContext.fromEnvironment();
                    io.dpone.cdc.bundle.ApprovedBundle.require(approvedBundle, options, context,
                        alias -> io.dpone.serve.ConnectionReach.reach(context, alias, "--sink-connection-id"));
                }
                report = CdcRuntime.run(options);
            } catch (DponeException e) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("schema", CdcRuntimeRunReport.SCHEMA);
                doc.put("mode", mode.name());
                doc.put("passed", false);
                doc.put("committed", false);
                doc.put("blockers", e.blockers());
                return Output.emit(false, doc, "cdc-runtime-run blocked:\n" + Output.blockersText(e.blockers()),
                    format);
            }
            return Output.emit(report.passed(), report, text(report), format);
        }

        private static String text(CdcRuntimeRunReport r) {
            if (!r.passed()) {
                return "cdc-runtime-run " + r.runId() + " red (offset " + (r.committed() ? "committed" : "not committed")
                    + "):\n" + Output.blockersText(r.blockers()) + retries(r);
            }
            CdcRuntimeRunReport.Counts c = r.counts();
            Map<String, Object> after = r.offsetAfter();
            String what = r.tables().isEmpty() ? r.stream().get("source_schema") + "." + r.stream().get("source_table")
                + " -> " + r.stream().get("target_dataset") : r.tables().size() + " tables";
            return "cdc-runtime-run " + r.runId() + " passed: " + what + "\n  read " + c.read()
                + ", replayed " + c.replayed() + ", applied " + c.applied() + ", already in sink "
                + c.alreadyInSink() + policies(r) + "\n  offset " + (after == null ? "-" : after.get("position"))
                + (r.committed() ? " committed" : " not moved (" + r.commitOutcome() + ")") + "\n" + tables(r)
                + retries(r);
        }

        /** The tick's transient-fault retries per operation kind (issue 35), when it retried any. */
        private static String retries(CdcRuntimeRunReport r) {
            if (r.retries() == null || r.retries().retries() == 0) {
                return "";
            }
            StringBuilder sb = new StringBuilder("  retries ").append(r.retries().retries()).append(" of ")
                .append(r.retries().maxRetries()).append(" (").append(r.retries().spentMillis()).append(" ms):");
            r.retries().byKind().forEach((k, v) -> sb.append(' ').append(k).append(' ').append(v));
            return sb.append(r.retries().budgetExhausted() ? ", budget spent" : "").append('\n').toString();
        }

        /** One line per table of a multi-table stream (nothing for a single-table stream). */
        private static String tables(CdcRuntimeRunReport r) {
            StringBuilder out = new StringBuilder();
            r.tables().forEach(t -> out.append("  ").append(t.sourceTable()).append(" -> ").append(t.targetDataset())
                .append(": read ").append(t.counts().read()).append(", applied ").append(t.counts().applied())
                .append(", already in sink ").append(t.counts().alreadyInSink()).append(", ms behind source ")
                .append(t.millisBehindSource()).append("added".equals(t.state()) ? ", added with a snapshot of "
                    + t.snapshotRows() + " row(s)" : "").append('\n'));
            return out.toString();
        }

        /** {@code "\n  value policies: valid_to clamp 2, ..."}, or nothing when none is declared. */
        private static String policies(CdcRuntimeRunReport r) {
            if (r.valuePolicy().isEmpty()) {
                return "";
            }
            StringBuilder out = new StringBuilder("\n  value policies:");
            r.valuePolicy().forEach(p -> out.append(' ').append(p.column()).append(' ').append(p.policy()).append(' ')
                .append(p.changed()).append(" changed,"));
            out.setLength(out.length() - 1);
            return out.toString();
        }
    }
}
