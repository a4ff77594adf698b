package io.dpone.cdc.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.connect.ConnectionContext;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.report.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * {@code cdc-runtime-run --require-approved-bundle DIR}: before the tick reads anything, the stream's bundle is
 * recomputed (every check of {@link PromotionChecks}, on the tick's own options) and its digest must be the one
 * {@code DIR/approval.json} approved, and every check must pass. A missing or unreadable approval is
 * {@code cdc_bundle.not_approved}; another digest is {@code cdc_bundle.digest_drift} (the configuration or the source
 * changed since the approval; for a multi-table stream, one per table whose digest moved, naming it in
 * {@code details.table}); a check failing now gives its own blockers.
 */
public final class ApprovedBundle {
    private ApprovedBundle() {
    }

    /** Returns the approved digest when the stream still matches it; else throws the typed refusal. */
    public static String require(Path dir, CdcRunOptions options, ConnectionContext context,
                                 Function<String, String> sinkReach) {
        return require(dir, options, context, sinkReach, null);
    }

    /** As above, the capture cleanup job's retention checked against {@code tickInterval} (null: not compared). */
    public static String require(Path dir, CdcRunOptions options, ConnectionContext context,
                                 Function<String, String> sinkReach, java.time.Duration tickInterval) {
        return require(dir, options, context, sinkReach, tickInterval, null);
    }

    /** As above, the stream's serving target checked too ({@code serving_target}; null: none). */
    public static String require(Path dir, CdcRunOptions options, ConnectionContext context,
                                 Function<String, String> sinkReach, java.time.Duration tickInterval,
                                 ServingPlan serving) {
        if (options.mode() != CdcMode.live) {
            throw new DponeException(BlockerCode.CDC_INVALID_ARGUMENT, "--require-approved-bundle",
                "--require-approved-bundle is for --mode live (a bundle checks a live source)");
        }
        java.util.List<Blocker> invalid = options.validate();
        if (!invalid.isEmpty()) {
            throw new DponeException(invalid);
        }
        Approval approved = approval(dir.resolve(CdcPromotionBundle.APPROVAL_FILE));
        CdcPromotionBundle now = PromotionChecks.build(options, context, sinkReach, tickInterval, serving);
        BundleFiles.drift(approved.digest(), approved.tables(), now, "the approved bundle");
        if (!now.passed()) {
            throw new DponeException(now.blockers());
        }
        return approved.digest();
    }

    /** An approval's digest, and a multi-table stream's table digests ({@code schema.table} to digest). */
    private record Approval(String digest, java.util.Map<String, String> tables) {
    }

    private static Approval approval(Path file) {
        String subject = "--require-approved-bundle/" + CdcPromotionBundle.APPROVAL_FILE;
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw notApproved(subject, "no approval in the bundle directory: generate the bundle, review it and"
                    + " approve it (dpone ops cdc-promotion-bundle ... --approve --approver NAME)");
            }
            if (Files.size(file) > BundleFiles.MAX_BYTES) {
                throw notApproved(subject, "the approval file is larger than 1 MiB: not an approval");
            }
            JsonNode node = Json.MAPPER.readTree(Files.readString(file));
            String digest = node == null ? "" : node.path("digest").asText("");
            if (!BundleFiles.APPROVAL_SCHEMA.equals(node == null ? null : node.path("schema").asText())
                || !digest.matches("[0-9a-f]{64}")) {
                throw notApproved(subject, "the file is not a " + BundleFiles.APPROVAL_SCHEMA + " document");
            }
            java.util.Map<String, String> tables = new java.util.LinkedHashMap<>();
            var fields = node.path("tables").fields();
            while (fields.hasNext()) {
                var e = fields.next();
                String t = e.getValue().asText("");
                if (!t.matches("[0-9a-f]{64}")) {
                    throw notApproved(subject, "the file is not a " + BundleFiles.APPROVAL_SCHEMA + " document (a "
                        + "table digest is not a digest)");
                }
                tables.put(e.getKey(), t);
            }
            return new Approval(digest, tables);
        } catch (IOException e) {
            throw notApproved(subject, "the approval file cannot be read as JSON");
        }
    }

    private static DponeException notApproved(String subject, String message) {
        return new DponeException(Blocker.of(BlockerCode.CDC_BUNDLE_NOT_APPROVED, subject, message));
    }
}
