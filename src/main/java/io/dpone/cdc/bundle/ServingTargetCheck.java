package io.dpone.cdc.bundle;

import io.dpone.cdc.bundle.Findings.Lane;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code serving_target} (per table): when the stream names a serving target ({@link ServingPlan}), its mode and
 * delete mode are the materializer's, the target is a {@code db.table} other than the log and the offset store, its
 * database (when it exists) is Atomic, and the target does not exist yet or is dpone's serving table of this table's
 * log: its comment carries {@link CdcMaterializer#TARGET_MARKER} and {@code source=<the log>}, as the materializer
 * writes it. A target someone else made, or the serving table of another log, would be refused at the first
 * materialization (or would serve another stream's rows). Passed when the stream names no serving target.
 */
final class ServingTargetCheck {
    static final String ID = "serving_target";
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,190}");

    private final CdcRunOptions options;
    private final Findings findings;
    private final ServingPlan serving;

    ServingTargetCheck(CdcRunOptions options, Findings findings, ServingPlan serving) {
        this.options = options;
        this.findings = findings;
        this.serving = serving;
    }

    void check(ClickHouseEndpoint ch, Lane l) {
        String target = serving == null ? null : serving.targetOf(l.schema(), l.table(), options.multiTable());
        if (target == null) {
            findings.pass(ID, "no serving target: the stream writes " + l.targetDataset() + " only");
            return;
        }
        List<Blocker> invalid = new ArrayList<>();
        String subject = options.multiTable() ? l.logOption().replace(".target_dataset", ".materialize_target")
            : "--materialize-target";
        if (Arrays.stream(CdcMaterializer.Mode.values()).noneMatch(m -> m.name().equals(serving.mode()))) {
            invalid.add(invalid("--materialize-mode", "serving mode '" + serving.mode() + "' is not rebuild or "
                + "incremental"));
        }
        if (serving.deleteMode() != null && Arrays.stream(CdcMaterializer.DeleteMode.values())
            .noneMatch(m -> m.name().equals(serving.deleteMode()))) {
            invalid.add(invalid("--materialize-delete-mode", "delete mode '" + serving.deleteMode() + "' is not "
                + "exclude_deleted or tombstone"));
        }
        String[] name = target.split("\\.", 2);
        if (name.length != 2 || !NAME.matcher(name[0]).matches() || !NAME.matcher(name[1]).matches()) {
            invalid.add(invalid(subject, "serving target '" + target + "' is not db.table"));
        } else if (target.equalsIgnoreCase(l.targetDataset()) || target.equalsIgnoreCase(options.targetDatabase()
            + "." + ClickHouseCdcAdapters.OFFSETS_TABLE)) {
            invalid.add(invalid(subject, "serving target " + target + " is the stream's "
                + (target.equalsIgnoreCase(l.targetDataset()) ? "CDC log" : "offset store")
                + ": materialize into a table of its own"));
        } else {
            ch.operations().databaseEngine(name[0]).filter(e -> !e.equals("Atomic")).ifPresent(e -> invalid.add(
                invalid(subject, "the serving target's database " + name[0] + " uses engine " + e + "; the "
                    + "materializer publishes by EXCHANGE or RENAME, which need an Atomic database")));
        }
        if (!invalid.isEmpty()) {
            findings.fail(ID, "the serving configuration of " + l.name() + " is invalid", invalid);
            return;
        }
        String mode = serving.mode() + (serving.deleteMode() == null ? "" : ", " + serving.deleteMode());
        Optional<String> comment = ch.operations().table(name[0], name[1])
            .map(t -> t.comment() == null ? "" : t.comment());
        if (comment.isEmpty()) {
            findings.pass(ID, target + " does not exist yet: the first materialization (" + mode + ") creates it");
            return;
        }
        String c = comment.get();
        boolean ours = c.startsWith(CdcMaterializer.TARGET_MARKER);
        if (ours && (c + " ").contains(" source=" + l.targetDataset() + " ")) {
            findings.pass(ID, target + " is dpone's serving table of " + l.targetDataset() + " (" + mode + ")");
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("serving_target", target);
        details.put("target_dataset", l.targetDataset());
        String source = ours && c.contains(" source=") ? c.substring(c.indexOf(" source=") + 8).split(" ", 2)[0]
            : null;
        String whose = ours ? "dpone's serving table of another CDC log" + (source == null ? "" : " (" + source + ")")
            : "a table dpone did not publish (no " + CdcMaterializer.TARGET_MARKER + " comment)";
        String effect = ours ? "materializing " + l.targetDataset() + " into it would replace the rows it serves"
            : "the materializer refuses to replace it (cdc_materialize.target_not_owned)";
        findings.fail(ID, target + " is " + whose, List.of(Blocker.of(BlockerCode.CDC_BUNDLE_SERVING_TARGET_NOT_OWNED,
            subject, "serving target " + target + " exists and is " + whose + ": " + effect + "; name another "
                + "serving target, or drop it if it is an abandoned one", details)));
    }

    private static Blocker invalid(String subject, String message) {
        return Blocker.of(BlockerCode.CDC_BUNDLE_SERVING_CONFIG_INVALID, subject, message);
    }
}
