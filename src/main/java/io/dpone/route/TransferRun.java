package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.PartwiseTableStats;
import io.dpone.clickhouse.ReplacedGenerationMerges;
import io.dpone.connect.ConnectionContext;
import io.dpone.format.ChunkFormat;
import io.dpone.manifest.BatchManifest;
import io.dpone.quality.GateResult;
import io.dpone.quality.SourceStats;
import io.dpone.source.SourceReader;
import io.dpone.source.SourceTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The state of one full-refresh run as it travels through the route: what the exchange body carries between the
 * steps. Mutable by design (one run, one thread of steps); everything user-visible is copied into the report.
 */
public final class TransferRun {
    public final BatchManifest manifest;
    public final String runId;
    public final String runKey;
    public final String loadId = UUID.randomUUID().toString();
    public final Instant startedAt = Instant.now();
    public final ConnectionContext context;
    public final Path workDir;
    public final ProgressListener progress;
    public Instant extractedAt;
    public ClickHouseEndpoint clickhouse;
    public SourceReader source;
    public SourceTable table;
    public String stagingTable;
    public ChunkFormat format;
    public ObjectStaging objectStaging;
    public ChunkProducer producer;
    /** The target side of the gates, counted part by part as chunks land (null when resuming after publish). */
    public PartwiseTableStats stagingStats;
    /** The embedded target's merges, paused while this run replaces it (null when nothing was paused). */
    public ReplacedGenerationMerges replacedMerges;
    public Path spoolDir;
    /** Extra settings of this run's pulls from object storage (resolved against the server at the first pull). */
    public String pullReadSettings;
    public long rowsLoaded;
    public long bytesLoaded;
    public int chunksLoaded;
    public SourceStats sourceStats;
    public final List<GateResult> gates = new ArrayList<>();
    public final Map<String, Long> stepMillis = new LinkedHashMap<>();
    /** Facts the report states that are neither gates nor blockers (e.g. how the source was read). */
    public final List<String> notes = new ArrayList<>();
    public boolean published;
    public boolean resumedAfterPublish;
    public String routeId;
    /** 0 for the whole table; a certification scenario may sample the first N rows in key order. */
    public long rowLimit;

    public TransferRun(BatchManifest manifest, String runId, ConnectionContext context, Path workDir,
                       ProgressListener progress) {
        this.manifest = manifest;
        this.runId = runId;
        this.runKey = keyOf(runId);
        this.context = context;
        this.workDir = workDir;
        this.progress = progress;
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

    public void addStep(String step, long startedNanos) {
        stepMillis.merge(step, (System.nanoTime() - startedNanos) / 1_000_000, Long::sum);
    }

    /** After a chunk landed: the gates' target side counts the new part(s) now, while the producer reads on. */
    public void countLoadedChunk() {
        if (stagingStats != null) {
            long t0 = System.nanoTime();
            stagingStats.countNewParts();
            addStep("dq", t0);
        }
    }

    /** The comment that marks a staging table (and, after the swap, the target) as this run's generation. */
    public String generationComment() {
        return "dpone:run=" + runKey;
    }
}
