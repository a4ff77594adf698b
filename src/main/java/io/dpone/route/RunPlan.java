package io.dpone.route;

import io.dpone.connect.ConnectionContext;
import io.dpone.manifest.BatchManifest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;

/**
 * What one full-refresh run was asked to do, fixed before its route starts: the manifest, the run id and its
 * identifier-safe key, the route, the row limit and where the run keeps its local state. Immutable.
 *
 * @param loadId    a fresh id per attempt, written into every loaded row's metadata columns
 * @param rowLimit  0 for the whole table; a certification scenario may sample the first N rows in key order
 * @param connectors how the run opens its endpoint, source and object staging
 */
public record RunPlan(BatchManifest manifest, String runId, String runKey, String loadId, Instant startedAt,
                      ConnectionContext context, Path workDir, ProgressListener progress, String routeId,
                      long rowLimit, RunConnectors connectors) {

    /** The plan of a new attempt of {@code runId} on {@code routeId}. */
    public static RunPlan of(BatchManifest manifest, String runId, ConnectionContext context, Path workDir,
                             ProgressListener progress, String routeId, long rowLimit, RunConnectors connectors) {
        return new RunPlan(manifest, runId, keyOf(runId), UUID.randomUUID().toString(), Instant.now(), context,
            workDir, progress, routeId, rowLimit, connectors);
    }

    /** A short stable identifier-safe key for a run id (run ids may hold '.' and '-'). */
    public static String keyOf(String runId) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(runId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The comment that marks a staging table (and, after the swap, the target) as this run's generation. */
    public String generationComment() {
        return "dpone:run=" + runKey;
    }
}
