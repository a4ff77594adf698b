package io.dpone.route;

import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.format.ByteBuf;
import io.dpone.format.ChunkFormat;
import io.dpone.format.ChunkFormats;
import io.dpone.format.ChunkWriter;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.IntegerType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The route capability probes the spec names, each run against its real cause and each reported with its code:
 * Parquet writer ({@code source.columnar_writer_missing}), runtime put/get/delete of a sentinel object
 * ({@code storage.runtime_put_denied}), the named collection ({@code sink.auth.named_collection_missing}), the
 * cluster ({@code sink.cluster_pull_unsupported}) and ClickHouse reading the sentinel Parquet through the planned
 * table function ({@code format.parquet_read_unsupported}). No source data is read.
 */
final class ObjectStorageProbes {
    private static final List<SourceColumn> SENTINEL = List.of(new SourceColumn("probe", "bigint", false,
        new IntegerType(64, false)));

    /** A probe must answer quickly: ClickHouse's S3 client otherwise retries an unreachable store for minutes. */
    static final String PROBE_SETTINGS = "s3_throw_on_zero_files_match = 1, s3_retry_attempts = 1, "
        + "s3_connect_timeout_ms = 3000, s3_request_timeout_ms = 10000, s3_max_unexpected_write_error_retries = 1";

    private final TransferRun run;

    ObjectStorageProbes(TransferRun run) {
        this.run = run;
    }

    List<Blocker> run(boolean cluster) {
        List<Blocker> blocked = new ArrayList<>();
        ObjectStaging staging = run.resources().objectStaging();
        Path sentinel = null;
        String key = staging.key("_preflight-" + UUID.randomUUID() + ".parquet");
        try {
            sentinel = writeSentinel(run.plan().workDir().resolve("spool").resolve(run.plan().runKey() + "-preflight"));
        } catch (RuntimeException | IOException e) {
            blocked.add(Blocker.of(BlockerCode.SOURCE_COLUMNAR_WRITER_MISSING, "parquet_writer",
                "the runtime cannot write a Parquet chunk"));
        }
        boolean uploaded = false;
        if (sentinel != null) {
            try {
                staging.store().store().put(key, sentinel);
                uploaded = true;
                try (InputStream in = staging.store().store().get(key)) {
                    in.readAllBytes();
                }
            } catch (RuntimeException | IOException e) {
                if (staging.config().requireRuntimeWrite()) {
                    blocked.add(Blocker.of(BlockerCode.STORAGE_RUNTIME_PUT_DENIED, "runtime_access",
                        "the runtime writer cannot put and read back a sentinel object"));
                }
            }
        }
        if ("named_collection".equals(staging.config().readMode()) && run.clickhouse().query(
                "SELECT 1 FROM system.named_collections WHERE name = "
                    + ClickHouseSql.literal(staging.config().namedCollection())).isEmpty()) {
            blocked.add(Blocker.of(BlockerCode.SINK_NAMED_COLLECTION_MISSING, "clickhouse_read_access",
                "ClickHouse has no named collection " + staging.config().namedCollection()));
        }
        if (cluster && (staging.cluster() == null || run.clickhouse().query("SELECT 1 FROM system.clusters WHERE "
                + "cluster = " + ClickHouseSql.literal(staging.cluster())).isEmpty())) {
            blocked.add(Blocker.of(BlockerCode.SINK_CLUSTER_PULL_UNSUPPORTED, "sink.options.clickhouse_bulk",
                "ClickHouse has no cluster " + (staging.cluster() == null ? "(none configured)" : staging.cluster())
                    + " for s3Cluster"));
        }
        if (blocked.isEmpty() && uploaded && staging.config().requireClickhouseRead()) {
            try {
                String n = run.clickhouse().query("SELECT count() FROM " + staging.tableFunction(key, "Parquet",
                    "probe Int64") + " SETTINGS " + PROBE_SETTINGS).get(0).get(0);
                if (!"1".equals(n)) {
                    throw new ClickHouseQueryException("sentinel read returned " + n + " rows");
                }
            } catch (ClickHouseQueryException e) {
                blocked.add(Blocker.of(cluster ? BlockerCode.SINK_CLUSTER_PULL_UNSUPPORTED
                        : BlockerCode.FORMAT_PARQUET_READ_UNSUPPORTED, "clickhouse_read_access",
                    "ClickHouse could not read the sentinel Parquet object through "
                        + (cluster ? "s3Cluster" : "s3")));
            }
        }
        cleanup(uploaded, key, sentinel, blocked);
        return blocked;
    }

    private void cleanup(boolean uploaded, String key, Path sentinel, List<Blocker> blocked) {
        ObjectStaging staging = run.resources().objectStaging();
        if (uploaded) {
            try {
                staging.store().store().delete(key);
            } catch (RuntimeException e) {
                if (staging.config().requireRuntimeWrite()) {
                    blocked.add(Blocker.of(BlockerCode.STORAGE_RUNTIME_PUT_DENIED, "runtime_access",
                        "the runtime writer cannot delete the sentinel object"));
                }
            }
        }
        if (sentinel != null) {
            try {
                Files.deleteIfExists(sentinel);
                Files.deleteIfExists(sentinel.getParent());
            } catch (IOException ignored) {
                // a sentinel file; nothing to lose
            }
        }
    }

    /** Writes a one-row Parquet chunk where the run spools its chunks: both the writer and the spool must work. */
    private static Path writeSentinel(Path dir) throws IOException {
        ChunkFormat parquet = ChunkFormats.byName("parquet");
        Files.createDirectories(dir);
        Path file = dir.resolve("sentinel.parquet");
        ByteBuf buf = new ByteBuf(16);
        buf.writeLongLE(1L);
        try (ChunkWriter w = parquet.open(file, SENTINEL)) {
            w.write(new Object[] {1L}, buf);
        }
        return file;
    }
}
