package io.dpone.cli;

import io.dpone.connect.EmbeddedDefaults;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dpone runs list|show RUN_ID}: what happened, from the records {@code dpone run} leaves under
 * {@code $DPONE_HOME/runs} (RunRecords): status, tables, route, rows, gates, whether a run can resume and how, where
 * its evidence lies. Reads only; exit 0, or 1 for a run id with no record.
 */
@Command(name = "runs", mixinStandardHelpOptions = true,
    description = "What happened: the runs recorded under $DPONE_HOME/runs.",
    subcommands = {RunsCommand.ListRuns.class, RunsCommand.Show.class})
public final class RunsCommand implements Runnable {
    static final String LIST_SCHEMA = "dpone.runs.v1";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required (list or show)");
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Every recorded run, newest first.")
    static final class ListRuns implements Callable<Integer> {
        @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
        Format format;

        @Override
        public Integer call() {
            List<Map<String, Object>> runs = io.dpone.route.RunRecords.all(EmbeddedDefaults.home());
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("schema", LIST_SCHEMA);
            doc.put("runs", runs);
            return Output.emit(true, doc, text(runs), format);
        }

        @SuppressWarnings("unchecked")
        static String text(List<Map<String, Object>> runs) {
            if (runs.isEmpty()) {
                return "no run recorded under $DPONE_HOME/runs yet (dpone run records each run it ends)\n";
            }
            StringBuilder sb = new StringBuilder(String.format("%-24s %-12s %-44s %-30s %12s %-14s %-9s %s%n",
                "RUN ID", "STATUS", "TABLES", "ROUTE", "ROWS", "GATES", "RESUMABLE", "FINISHED"));
            for (Map<String, Object> r : runs) {
                Map<String, Object> gates = (Map<String, Object>) r.getOrDefault("gates", Map.of());
                long passed = gates.values().stream().filter("passed"::equals).count();
                String tables = r.get("source_table") == null ? "-" : r.get("source_table") + " -> "
                    + r.get("target_table");
                sb.append(String.format("%-24s %-12s %-44s %-30s %12s %-14s %-9s %s%n", r.get("run_id"),
                    r.get("status"), tables, r.get("route_id") == null ? "-" : r.get("route_id"),
                    r.get("loaded_rows"), gates.isEmpty() ? "-" : passed + "/" + gates.size() + " passed",
                    Boolean.TRUE.equals(r.get("resumable")) ? "yes" : "no",
                    r.get("finished_at") == null ? "-" : r.get("finished_at")));
            }
            return sb.toString();
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "One run: every field of its record.")
    static final class Show implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "RUN_ID", description = "The run id given to dpone run.")
        String runId;

        @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
        Format format;

        @Override
        public Integer call() {
            List<Map<String, Object>> runs = io.dpone.route.RunRecords.all(EmbeddedDefaults.home()).stream()
                .filter(r -> runId.equals(r.get("run_id"))).toList();
            if (runs.isEmpty()) {
                Blocker b = Blocker.of(BlockerCode.RUN_UNKNOWN, "RUN_ID", "no run '" + runId + "' is recorded under "
                    + "$DPONE_HOME/runs; 'dpone runs list' shows the recorded ones (DPONE_HOME names the home)");
                return Output.emit(false, Map.of("schema", LIST_SCHEMA, "blockers", List.of(b)),
                    "runs show: " + b.code() + ": " + b.message() + "\n", format);
            }
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("schema", LIST_SCHEMA);
            doc.put("runs", runs);
            StringBuilder sb = new StringBuilder();
            for (Map<String, Object> r : runs) {
                r.forEach((k, v) -> {
                    if (!k.equals("schema")) {
                        sb.append(String.format("%-31s %s%n", k + ":", v));
                    }
                });
                sb.append('\n');
            }
            return Output.emit(true, doc, sb.toString(), format);
        }
    }
}
