package io.dpone.cli;

import io.dpone.cdc.bundle.BundleFiles;
import io.dpone.cdc.bundle.CdcPromotionBundle;
import io.dpone.cdc.bundle.PromotionChecks;
import io.dpone.cdc.bundle.ServingPlan;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.connect.ConnectionContext;
import io.dpone.error.DponeException;
import io.dpone.serve.ConnectionReach;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpone ops cdc-promotion-bundle}: checks everything one live CDC stream needs before it runs (the options of
 * {@code cdc-runtime-run --mode live}, a multi-table stream's repeated {@code --table} included) and writes the bundle
 * with its digest; {@code --approve --approver NAME} approves the reviewed bundle in {@code --output-dir}.
 */
@Command(name = "cdc-promotion-bundle", sortOptions = false, mixinStandardHelpOptions = true,
    description = "Check a live CDC stream before it runs and write its promotion bundle (JSON, Markdown, digest); "
        + "--approve records who approved which digest.")
public final class CdcPromotionBundleCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    CdcStreamOptions stream;
    @Option(names = "--source-connection-id", required = true, description = "source connection alias")
    String sourceConnectionId;
    @Option(names = "--sink-connection-id", required = true, description = "sink connection alias")
    String sinkConnectionId;
    @Option(names = "--output-dir", required = true, description = "where the bundle (and the approval) is written")
    Path outputDir;
    @Option(names = "--approve", description = "approve the reviewed bundle in --output-dir (needs --approver)")
    boolean approve;
    @Option(names = "--approver", description = "with --approve: who approves (a name or handle)")
    String approver;
    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;
    @Option(names = "--tick-interval", paramLabel = "DURATION", description = "how often the stream will tick "
        + "(10s, 5m, 1h): the capture cleanup job must keep changes at least twice as long")
    String tickInterval;
    @Option(names = "--materialize-target", paramLabel = "DB.TABLE|SCHEMA.TABLE=DB.TABLE", description = "the "
        + "serving table the stream's log is materialized into (a multi-table stream: one per table, "
        + "SCHEMA.TABLE=DB.TABLE): it must not exist yet or be dpone's serving table of that log")
    java.util.List<String> materializeTargets;
    @Option(names = "--materialize-mode", defaultValue = "rebuild", description = "with --materialize-target: "
        + "rebuild or incremental (default: ${DEFAULT-VALUE})")
    String materializeMode;
    @Option(names = "--materialize-delete-mode", defaultValue = "exclude_deleted", description = "with "
        + "--materialize-target: exclude_deleted or tombstone (default: ${DEFAULT-VALUE})")
    String materializeDeleteMode;

    @Override
    public Integer call() {
        if (approve != (approver != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), approve
                ? "Missing required option: '--approver' (required with --approve)"
                : "--approver is for --approve");
        }
        java.time.Duration interval = tickInterval == null ? null : io.dpone.manifest.ShortDuration
            .parse(tickInterval).filter(d -> !d.isZero()).orElseThrow(() -> new CommandLine.ParameterException(
                spec.commandLine(), "--tick-interval must be a positive duration: digits and ms, s, m or h (10s)"));
        io.dpone.watchdog.PhaseWatchdog.runDirectory(outputDir);
        CdcRunOptions options = stream.builder(CdcMode.live).connections(sourceConnectionId, sinkConnectionId)
            .build();
        ConnectionContext context;
        try {
            context = ConnectionContext.fromEnvironment();
        } catch (DponeException e) {
            return blocked(e);
        }
        CdcPromotionBundle bundle = PromotionChecks.build(options, context,
            alias -> ConnectionReach.reach(context, alias, "--sink-connection-id"), interval, serving(options));
        if (!approve) {
            BundleFiles.write(outputDir, bundle);
            return Output.emit(bundle.passed(), bundle, text(bundle), format);
        }
        Map<String, Object> approval;
        try {
            approval = BundleFiles.approve(outputDir, bundle, approver, Instant.now());
        } catch (DponeException e) {
            return blocked(e);
        }
        return Output.emit(true, approval, "cdc-promotion-bundle approved: stream " + stream.pipelineName + ", digest "
            + approval.get("digest") + ", by " + approver + " at " + approval.get("approved_at") + "\n", format);
    }

    /** The serving target(s) of {@code --materialize-target}, null when none is named. */
    private ServingPlan serving(CdcRunOptions options) {
        if (materializeTargets == null || materializeTargets.isEmpty()) {
            return null;
        }
        if (!options.multiTable()) {
            if (materializeTargets.size() > 1 || materializeTargets.get(0).contains("=")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--materialize-target: a single-table "
                    + "stream takes one DB.TABLE");
            }
            return new ServingPlan(materializeMode, materializeDeleteMode, materializeTargets.get(0), null, null);
        }
        Map<String, String> targets = new LinkedHashMap<>();
        for (String t : materializeTargets) {
            int eq = t.indexOf('=');
            if (eq <= 0 || eq == t.length() - 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--materialize-target: a multi-table "
                    + "stream takes SCHEMA.TABLE=DB.TABLE per table");
            }
            targets.put(t.substring(0, eq), t.substring(eq + 1));
        }
        return new ServingPlan(materializeMode, materializeDeleteMode, null, targets, null);
    }

    private int blocked(DponeException e) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", approve ? BundleFiles.APPROVAL_SCHEMA : CdcPromotionBundle.SCHEMA);
        doc.put("passed", false);
        doc.put("blockers", e.blockers());
        return Output.emit(false, doc, "cdc-promotion-bundle " + (approve ? "approval refused" : "blocked") + ":\n"
            + Output.blockersText(e.blockers()), format);
    }

    private static String text(CdcPromotionBundle b) {
        StringBuilder out = new StringBuilder("cdc-promotion-bundle " + b.stream().get("pipeline_name") + " "
            + (b.passed() ? "passed" : "blocked") + " (digest " + b.digest() + ")\n");
        b.checks().forEach(c -> out.append("  ").append(c.status()).append(' ').append(c.id()).append(": ")
            .append(c.detail()).append('\n'));
        if (b.tables() != null) {
            for (CdcPromotionBundle.TableBundle t : b.tables()) {
                out.append("  table ").append(t.table()).append(" -> ").append(t.targetDataset()).append(' ')
                    .append(t.passed() ? "passed" : "blocked").append('\n');
                t.checks().forEach(c -> out.append("    ").append(c.status()).append(' ').append(c.id())
                    .append(": ").append(c.detail()).append('\n'));
            }
        }
        if (!b.blockers().isEmpty()) {
            out.append(Output.blockersText(b.blockers()));
        }
        return out.toString();
    }
}
