package io.dpone.cdc.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.report.Json;
import io.dpone.report.ReportWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The files of a promotion bundle in its directory: {@code cdc_promotion_bundle.json} and {@code .md}, and the
 * {@code approval.json} {@code --approve} writes beside them. Written through {@link ReportWriter} (redacted, 0600,
 * atomic).
 */
public final class BundleFiles {
    public static final String APPROVAL_SCHEMA = "dpone.cdc_promotion_approval.v1";
    /** An approver: a person's name or handle, 1-128 letters, digits, spaces and {@code . _ @ -}. */
    public static final Pattern APPROVER = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} ._@-]{0,127}");
    /** A bundle file is small; a larger file is not one (refused unread). */
    static final long MAX_BYTES = 1024 * 1024;

    private BundleFiles() {
    }

    /** Writes the JSON and the Markdown form of {@code bundle} into {@code dir}. */
    public static void write(Path dir, CdcPromotionBundle bundle) {
        ReportWriter.writeJson(dir.resolve(CdcPromotionBundle.JSON_FILE), bundle);
        ReportWriter.writeMarkdown(dir.resolve(CdcPromotionBundle.MARKDOWN_FILE), markdown(bundle));
    }

    /**
     * Approves the bundle in {@code dir}: {@code current} (the bundle recomputed now) must pass and carry the digest
     * of the bundle file the approver reviewed; writes {@code approval.json} (approver, UTC time, digest) and returns
     * it. Refuses with {@code cdc_bundle.bundle_unreadable} (no bundle in {@code dir}), {@code cdc_bundle.not_approvable}
     * (a red bundle) or {@code cdc_bundle.digest_drift} (the source or the configuration changed since).
     */
    public static Map<String, Object> approve(Path dir, CdcPromotionBundle current, String approver, Instant now) {
        if (approver == null || !APPROVER.matcher(approver).matches()) {
            throw new DponeException(BlockerCode.CDC_INVALID_ARGUMENT, "--approver", "--approver must be 1-128 "
                + "letters, digits, spaces, '.', '_', '@' or '-', starting with a letter or digit");
        }
        JsonNode reviewed = read(dir.resolve(CdcPromotionBundle.JSON_FILE));
        if (!current.passed() || !reviewed.path("passed").asBoolean(false)) {
            throw new DponeException(Blocker.of(BlockerCode.CDC_BUNDLE_NOT_APPROVABLE, "--approve",
                "the bundle of stream " + current.stream().get("pipeline_name") + " has "
                    + Math.max(current.blockers().size(), reviewed.path("blockers").size()) + " blocker(s): only a "
                    + "bundle whose every check passed can be approved; fix them and generate the bundle again"));
        }
        Map<String, String> reviewedTables = new LinkedHashMap<>();
        reviewed.path("tables").forEach(t -> reviewedTables.put(t.path("table").asText(""),
            t.path("digest").asText("")));
        drift(reviewed.path("digest").asText(""), reviewedTables, current, "the reviewed bundle");
        Map<String, Object> approval = new LinkedHashMap<>();
        approval.put("schema", APPROVAL_SCHEMA);
        approval.put("pipeline_name", current.stream().get("pipeline_name"));
        approval.put("approver", approver);
        approval.put("approved_at", now.truncatedTo(ChronoUnit.SECONDS).toString());
        approval.put("digest", current.digest());
        if (current.tables() != null) {
            approval.put("tables", current.tableDigests());
        }
        ReportWriter.writeJson(dir.resolve(CdcPromotionBundle.APPROVAL_FILE), approval);
        return approval;
    }

    /**
     * {@code cdc_bundle.digest_drift} when {@code recorded} is not the digest of {@code now}. For a multi-table stream
     * whose recorded table digests are known ({@code recordedTables}, {@code schema.table} to digest), one blocker per
     * table whose configuration or source changed (or that was added or removed), each naming it in its message and
     * {@code details.table}; when no table's digest moved, the stream's own configuration changed (one blocker).
     */
    static void drift(String recorded, Map<String, String> recordedTables, CdcPromotionBundle now, String what) {
        if (recorded.equals(now.digest())) {
            return;
        }
        List<Blocker> found = new ArrayList<>();
        Map<String, String> current = now.tableDigests();
        if (!recordedTables.isEmpty() && !current.isEmpty()) {
            Set<String> names = new TreeSet<>(recordedTables.keySet());
            names.addAll(current.keySet());
            for (String table : names) {
                String was = recordedTables.get(table);
                String is = current.get(table);
                if (was != null && was.equals(is)) {
                    continue;
                }
                Map<String, Object> details = driftDetails(recorded, now.digest());
                details.put("table", table);
                details.put("recorded_table_digest", was);
                details.put("current_table_digest", is);
                String why = was == null ? "the stream names table " + table + " since " + what + " was made"
                    : is == null ? what + " covers table " + table + ", which the stream no longer names"
                    : "table " + table + " changed since " + what + " was made: its --table (log, keys) or its "
                        + "source (capture instance, captured columns or their types, primary key)";
                found.add(Blocker.of(BlockerCode.CDC_BUNDLE_DIGEST_DRIFT, "digest", what + "'s digest " + recorded
                    + " is not the digest of the stream and its source now (" + now.digest() + "): " + why
                    + "; generate the bundle again, review it and approve it", details));
            }
        }
        if (found.isEmpty()) {
            found.add(Blocker.of(BlockerCode.CDC_BUNDLE_DIGEST_DRIFT, "digest", what + "'s digest " + recorded
                + " is not the digest of the stream and its source now (" + now.digest() + "): the stream "
                + "configuration, the capture instance, its columns or types, or the keys changed; generate the "
                + "bundle again, review it and approve it", driftDetails(recorded, now.digest())));
        }
        throw new DponeException(found);
    }

    private static Map<String, Object> driftDetails(String recorded, String now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("recorded_digest", recorded);
        details.put("current_digest", now);
        return details;
    }

    /** The bundle JSON at {@code file}, refused when it is missing, too large, not JSON or not a bundle. */
    static JsonNode read(Path file) {
        String subject = "--output-dir/" + CdcPromotionBundle.JSON_FILE;
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw unreadable(subject, "no bundle in the output directory: generate it first (without --approve)"
                    + " and review it");
            }
            if (Files.size(file) > MAX_BYTES) {
                throw unreadable(subject, "the bundle file is larger than 1 MiB: not a bundle");
            }
            JsonNode node = Json.MAPPER.readTree(Files.readString(file));
            if (node == null || !CdcPromotionBundle.SCHEMA.equals(node.path("schema").asText())) {
                throw unreadable(subject, "the file is not a " + CdcPromotionBundle.SCHEMA + " document");
            }
            return node;
        } catch (IOException e) {
            throw unreadable(subject, "the bundle file cannot be read as JSON");
        }
    }

    private static DponeException unreadable(String subject, String message) {
        return new DponeException(Blocker.of(BlockerCode.CDC_BUNDLE_UNREADABLE, subject, message));
    }

    /**
     * The Markdown form: stream, checks, columns, blockers, digest; for a multi-table stream, the tables, then each
     * table's checks, columns and blockers under its own heading.
     */
    public static String markdown(CdcPromotionBundle b) {
        StringBuilder md = new StringBuilder();
        md.append("# CDC promotion bundle: ").append(b.stream().get("pipeline_name")).append("\n\n");
        md.append("Result: **").append(b.passed() ? "passed" : "blocked").append("**  \n");
        md.append("Digest: `").append(b.digest()).append("`\n\n## Stream\n\n| option | value |\n| --- | --- |\n");
        b.stream().forEach((k, v) -> {
            if (!"tables".equals(k)) {
                md.append("| ").append(k).append(" | ").append(cell(v)).append(" |\n");
            }
        });
        if (b.tables() != null) {
            md.append("\n## Tables\n\n| table | CDC log | unique keys | capture instance | result | digest |\n"
                + "| --- | --- | --- | --- | --- | --- |\n");
            b.tables().forEach(t -> md.append("| ").append(t.table()).append(" | ").append(t.targetDataset())
                .append(" | ").append(cell(String.join(", ", t.uniqueKeys()))).append(" | ")
                .append(cell(t.captureInstance())).append(" | ").append(t.passed() ? "passed" : "blocked")
                .append(" | `").append(t.digest()).append("` |\n"));
        }
        checks(md, "## Checks", b.checks());
        if (b.tables() == null) {
            columns(md, "## Columns", b.columns());
        }
        for (CdcPromotionBundle.TableBundle t : b.tables() == null ? List.<CdcPromotionBundle.TableBundle>of()
            : b.tables()) {
            md.append("\n## Table ").append(t.table()).append("\n\nResult: **")
                .append(t.passed() ? "passed" : "blocked").append("**\n");
            checks(md, "### Checks", t.checks());
            columns(md, "### Columns", t.columns());
        }
        md.append("\n## Blockers\n\n");
        if (b.blockers().isEmpty()) {
            md.append("None.\n");
        }
        b.blockers().forEach(x -> {
            Object table = x.details().get("table");
            md.append("- `").append(x.code()).append("` at `").append(x.subject()).append('`')
                .append(table == null ? "" : " (table `" + table + "`)").append(": ").append(x.message())
                .append('\n');
        });
        return md.toString();
    }

    private static void checks(StringBuilder md, String heading, List<CdcPromotionBundle.Check> checks) {
        md.append("\n").append(heading).append("\n\n| check | status | detail |\n| --- | --- | --- |\n");
        checks.forEach(c -> md.append("| ").append(c.id()).append(" | ").append(c.status()).append(" | ")
            .append(cell(c.detail())).append(" |\n"));
    }

    private static void columns(StringBuilder md, String heading, List<CdcPromotionBundle.ColumnVerdict> columns) {
        md.append("\n").append(heading).append("\n\n| column | source type | nullable | key | verdict | ClickHouse | "
            + "policy |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        for (var c : columns) {
            StringBuilder ch = new StringBuilder();
            c.clickhouse().forEach(m -> ch.append(ch.length() == 0 ? "" : ", ").append(m.get("name")).append(' ')
                .append(m.get("type")));
            md.append("| ").append(c.name()).append(" | ").append(c.sourceType()).append(" | ").append(c.nullable())
                .append(" | ").append(c.key()).append(" | ").append(c.verdict())
                .append(c.blockerCode() == null ? "" : " (" + c.blockerCode() + ")").append(" | ")
                .append(cell(ch.toString())).append(" | ").append(c.policy()).append(" |\n");
        }
    }

    private static String cell(Object v) {
        return v == null ? "-" : String.valueOf(v).replace("|", "\\|").replace("\n", " ");
    }
}
