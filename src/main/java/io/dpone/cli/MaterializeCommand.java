package io.dpone.cli;

import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.report.ReportWriter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpone ops cdc-materialize-clickhouse}: rebuilds the serving table of a ClickHouse CDC log (see
 * {@link CdcMaterializer}). Exit 0 when the report passed (document on stdout), 1 when red (document on stderr,
 * stdout empty), 2 for a usage error (picocli).
 */
@Command(name = "cdc-materialize-clickhouse", sortOptions = false, mixinStandardHelpOptions = true,
    description = "Rebuild the latest row per key of a ClickHouse CDC log into a serving table, published atomically "
        + "(--mode rebuild), or apply only the new log rows to a versioned table served by a view (--mode incremental).")
public final class MaterializeCommand extends ReportCommand {
    @Option(names = "--cdc-dataset", required = true, description = "the append-only CDC log, db.table")
    String cdcDataset;
    @Option(names = "--target-dataset", required = true, description = "the serving table, db.table")
    String targetDataset;
    @Option(names = "--unique-key", required = true, description = "repeat for compound keys")
    List<String> uniqueKeys;
    @Option(names = "--sink-connection-id", required = true, description = "ClickHouse connection alias")
    String sinkConnectionId;
    @Option(names = "--delete-mode", defaultValue = "exclude_deleted",
        description = "exclude_deleted or tombstone (default: ${DEFAULT-VALUE})")
    DeleteMode deleteMode;
    @Option(names = "--mode", defaultValue = "rebuild", description = "rebuild (the whole log, published by "
        + "EXCHANGE) or incremental (only the log rows above the last applied version, served by a view) "
        + "(default: ${DEFAULT-VALUE})")
    CdcMaterializer.Mode mode;
    @Option(names = "--batch-rows", defaultValue = "1000000",
        description = "incremental: log rows per applied batch (default: ${DEFAULT-VALUE})")
    long batchRows;
    @Option(names = "--tombstone-retention", defaultValue = "P7D", description = "incremental: keys deleted longer "
        + "ago than this ISO-8601 duration are purged at compaction, or none (default: ${DEFAULT-VALUE})")
    String tombstoneRetention;
    @Option(names = "--compact", defaultValue = "auto",
        description = "incremental: auto, always or never run OPTIMIZE ... FINAL (default: ${DEFAULT-VALUE})")
    CdcMaterializer.Compact compact;
    @Option(names = "--compact-max-parts", defaultValue = "32",
        description = "incremental, auto: compact above this many active parts (default: ${DEFAULT-VALUE})")
    int compactMaxParts;
    @Option(names = "--compact-max-unmerged-share", defaultValue = "0.25", description = "incremental, auto: "
        + "compact when more of the rows lie outside the largest part (default: ${DEFAULT-VALUE})")
    double compactMaxUnmergedShare;
    @Option(names = "--serving-view", defaultValue = "auto", description = "incremental: auto, final or argmax "
        + "(default: ${DEFAULT-VALUE}, which is final: measured faster)")
    String servingView;
    @Option(names = "--output-dir", description = "where cdc_materialization.json/.md go "
        + "(default: $DPONE_HOME/reports/cdc-materialize-clickhouse/TARGET_DATASET)")
    Path outputDir;

    public MaterializeCommand() {
        this(ConnectionContext::fromEnvironment, System.out, System.err);
    }

    /** For embedding and tests: the connection context and the streams to print to. */
    public MaterializeCommand(Supplier<ConnectionContext> context, PrintStream out, PrintStream err) {
        super(context, out, err);
    }

    @Override
    public Integer call() {
        Map<String, Object> report;
        if (outputDir == null) {
            outputDir = defaultOutputDir(targetDataset);
        }
        io.dpone.watchdog.PhaseWatchdog.runDirectory(outputDir);
        try (ClickHouseEndpoint ch = ClickHouseEndpoints.open(context.get().resolve(sinkConnectionId,
            ConnectionType.CLICKHOUSE, "--sink-connection-id"))) {
            report = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(cdcDataset, targetDataset,
                uniqueKeys, deleteMode, mode, new CdcMaterializer.Incremental(batchRows,
                    retention(tombstoneRetention), compact, compactMaxParts, compactMaxUnmergedShare, servingView)),
                outputDir);
        } catch (DponeException e) {
            report = new LinkedHashMap<>();
            report.put("schema", CdcMaterializer.SCHEMA);
            report.put("passed", false);
            report.put("cdc_dataset", cdcDataset);
            report.put("target_dataset", targetDataset);
            report.put("blockers", e.blockers());
        }
        return answer(report, MaterializeCommand::text);
    }

    /** An ISO-8601 duration ({@code P7D}, {@code PT12H}) or {@code none}. */
    static java.time.Duration retention(String value) {
        if (value == null || value.equals("none")) {
            return null;
        }
        try {
            return java.time.Duration.parse(value);
        } catch (java.time.format.DateTimeParseException e) {
            throw new DponeException(new Blocker(CdcMaterializer.INVALID_ARGUMENT, "--tombstone-retention",
                "an ISO-8601 duration (P7D, PT12H) or none", Map.of()));
        }
    }

    /**
     * The reports' directory when {@code --output-dir} is not given: under {@code $DPONE_HOME}, never the current
     * directory. A dataset name that is no plain {@code db.table} still gets one directory level (its unsafe
     * characters replaced); the command then refuses the dataset itself.
     */
    static Path defaultOutputDir(String targetDataset) {
        String leaf = targetDataset == null ? "unnamed" : targetDataset.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (leaf.isEmpty() || leaf.chars().allMatch(c -> c == '.')) {
            leaf = "unnamed";
        }
        return io.dpone.connect.EmbeddedDefaults.home().resolve("reports").resolve("cdc-materialize-clickhouse")
            .resolve(leaf);
    }

    @SuppressWarnings("unchecked")
    private static String text(Map<String, Object> r) {
        StringBuilder sb = new StringBuilder("cdc-materialize-clickhouse ").append(r.get("cdc_dataset"))
            .append(" -> ").append(r.get("target_dataset"));
        if (Boolean.TRUE.equals(r.get("passed")) && "incremental".equals(r.get("mode"))) {
            Object compaction = r.get("compaction") instanceof Map<?, ?> c ? c.get("ran") : null;
            sb.append(" passed (incremental): ").append(r.get("rows_in")).append(" log row(s) applied in ")
                .append(r.get("batches")).append(" batch(es), applied version ").append(r.get("applied_version"))
                .append(r.get("reseed") == null ? "" : ", versioned table rebuilt (" + r.get("reseed") + ")")
                .append(", compaction ").append(Boolean.TRUE.equals(compaction) ? "ran" : "not needed")
                .append(", parts ").append(r.get("parts")).append(", ").append(r.get("publish")).append('\n');
        } else if (Boolean.TRUE.equals(r.get("passed"))) {
            sb.append(" passed: ").append(r.get("rows_in")).append(" row(s) in, ").append(r.get("keys_out"))
                .append(" key(s) out, ").append(r.get("deletes_applied")).append(" delete(s) applied, published by ")
                .append(r.get("publish")).append('\n');
        } else {
            sb.append(" blocked:\n").append(Output.blockersText((List<Blocker>) r.get("blockers")));
        }
        return sb.toString();
    }
}
