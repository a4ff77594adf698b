package io.dpone.route;

import io.dpone.clickhouse.ClickHouseOperations;
import io.dpone.clickhouse.ClickHouseQueryException;
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
import java.util.Map;
import java.util.UUID;

/**
 * The route capability probes the spec names, each run against its real cause and each reported with its code:
 * Parquet writer ({@code source.columnar_writer_missing}), runtime put/get/delete of a sentinel object
 * ({@code storage.runtime_put_denied}), the named collection ({@code sink.auth.named_collection_missing}), the
 * cluster ({@code sink.cluster_pull_unsupported}) and ClickHouse reading the sentinel Parquet through the planned
 * table function ({@code format.parquet_read_unsupported}). No source data is read. Within a process, a passed probe
 * set is reused for the same connections and read access ({@link ProbeReuse}).
 */
final class ObjectStorageProbes {
    private static final List<SourceColumn> SENTINEL = List.of(new SourceColumn("probe", "bigint", false,
        new IntegerType(64, false)));

    /** A probe must answer quickly: ClickHouse's S3 client otherwise retries an unreachable store for minutes. */
    static final Map<String, String> PROBE_SETTINGS = ClickHouseOperations.settings("s3_throw_on_zero_files_match = 1, "
        + "s3_retry_attempts = 1, s3_connect_timeout_ms = 3000, s3_request_timeout_ms = 10000, "
        + "s3_max_unexpected_write_error_retries = 1");

    private final TransferRun run;

    ObjectStorageProbes(TransferRun run) {
        this.run = run;
    }

    /**
     * Runs every probe, records each one's result on the run ({@link TransferRun#addProbe}), and returns the blockers
     * of the failed ones that block the route. {@code cluster}: the run pulls with s3Cluster; otherwise
     * {@code clusterOutcome}, when given, is recorded as the {@code cluster} probe (use_cluster_function chose s3()).
     */
    List<Blocker> run(boolean cluster, ProbeResult clusterOutcome) {
        ObjectStaging staging = run.resources().objectStaging();
        String route = run.plan().routeId();
        String reuseKey = cluster ? null : ProbeReuse.key(run, staging);
        var reused = ProbeReuse.find(reuseKey);
        if (reused.isPresent()) {
            for (ProbeResult p : reused.get().probes()) {
                run.addProbe(p.probe().equals("cluster") ? (clusterOutcome != null ? clusterOutcome
                    : ProbeResult.skipped(route, "cluster", CLUSTER, "the route pulls with s3()"))
                    : ProbeReuse.replay(p, route, reused.get()));
            }
            return List.of();
        }
        int before = run.probes().size();
        List<Blocker> blocked = probe(cluster, clusterOutcome, staging, route);
        List<ProbeResult> mine = run.probes().subList(before, run.probes().size());
        if (blocked.isEmpty() && mine.stream().allMatch(p -> !p.status().equals("failed")
                || p.probe().equals("cluster"))) {
            ProbeReuse.remember(reuseKey, run.plan().runId(), mine);
        }
        return blocked;
    }

    private List<Blocker> probe(boolean cluster, ProbeResult clusterOutcome, ObjectStaging staging, String route) {
        List<Blocker> blocked = new ArrayList<>();
        Path sentinel = null;
        String key = staging.key("_preflight-" + UUID.randomUUID() + ".parquet");
        long t0 = System.nanoTime();
        try {
            sentinel = writeSentinel(run.plan().workDir().resolve("spool").resolve(run.plan().runKey() + "-preflight"));
            run.addProbe(ProbeResult.passed(route, "parquet_writer", WRITER, t0, null));
        } catch (RuntimeException | IOException e) {
            fail(blocked, Blocker.of(BlockerCode.SOURCE_COLUMNAR_WRITER_MISSING, "parquet_writer",
                "the runtime cannot write a Parquet chunk"), "parquet_writer", t0);
        }
        boolean uploaded = false;
        t0 = System.nanoTime();
        if (sentinel == null) {
            run.addProbe(ProbeResult.skipped(route, "runtime_write", PUT, "no sentinel: the Parquet writer failed"));
        } else {
            try {
                staging.store().store().put(key, sentinel);
                uploaded = true;
                try (InputStream in = staging.store().store().get(key)) {
                    in.readAllBytes();
                }
                run.addProbe(ProbeResult.passed(route, "runtime_write", PUT, t0, null));
            } catch (RuntimeException | IOException e) {
                if (staging.config().requireRuntimeWrite()) {
                    fail(blocked, Blocker.of(BlockerCode.STORAGE_RUNTIME_PUT_DENIED, "runtime_access",
                        "the runtime writer cannot put and read back a sentinel object"), "runtime_write", t0);
                } else {
                    run.addProbe(ProbeResult.failed(route, "runtime_write", PUT, t0, "the runtime writer cannot put "
                        + "and read back a sentinel object; not blocking: preflight.require_runtime_write is false"));
                }
            }
        }
        t0 = System.nanoTime();
        if (!"named_collection".equals(staging.config().readMode())) {
            run.addProbe(ProbeResult.skipped(route, "named_collection", COLLECTION,
                "clickhouse_read_access.mode is " + staging.config().readMode()));
        } else if (!run.clickhouse().operations().namedCollectionExists(staging.config().namedCollection())) {
            fail(blocked, Blocker.of(BlockerCode.SINK_NAMED_COLLECTION_MISSING, "clickhouse_read_access",
                "ClickHouse has no named collection " + staging.config().namedCollection()), "named_collection", t0);
        } else {
            run.addProbe(ProbeResult.passed(route, "named_collection", COLLECTION, t0, null));
        }
        t0 = System.nanoTime();
        if (!cluster) {
            run.addProbe(clusterOutcome != null ? clusterOutcome
                : ProbeResult.skipped(route, "cluster", CLUSTER, "the route pulls with s3()"));
        } else if (staging.cluster() == null || !run.clickhouse().operations().clusterExists(staging.cluster())) {
            fail(blocked, Blocker.of(BlockerCode.SINK_CLUSTER_PULL_UNSUPPORTED, "sink.options.clickhouse_bulk",
                "ClickHouse has no cluster " + (staging.cluster() == null ? "(none configured)" : staging.cluster())
                    + " for s3Cluster"), "cluster", t0);
        } else {
            run.addProbe(ProbeResult.passed(route, "cluster", CLUSTER, t0, null));
        }
        t0 = System.nanoTime();
        String readCode = cluster ? CLUSTER : READ;
        if (!staging.config().requireClickhouseRead()) {
            run.addProbe(ProbeResult.skipped(route, "clickhouse_read", readCode,
                "preflight.require_clickhouse_read is false"));
        } else if (!blocked.isEmpty() || !uploaded) {
            run.addProbe(ProbeResult.skipped(route, "clickhouse_read", readCode, !uploaded
                ? "no sentinel object in the store" : "an earlier probe failed"));
        } else {
            try {
                ChunkFormat parquet = ChunkFormats.byName("parquet");
                long n = run.clickhouse().operations().countObjectRows(staging.read(key, parquet.clickHouseFormat(),
                    parquet.structure(SENTINEL)), PROBE_SETTINGS);
                if (n != 1) {
                    throw new ClickHouseQueryException("sentinel read returned " + n + " rows");
                }
                run.addProbe(ProbeResult.passed(route, "clickhouse_read", readCode, t0, null));
            } catch (ClickHouseQueryException e) {
                String unusable = "named_collection".equals(staging.config().readMode()) ? collectionFault(e) : null;
                fail(blocked, unusable != null ? Blocker.of(BlockerCode.SINK_NAMED_COLLECTION_UNUSABLE,
                        "clickhouse_read_access.named_collection", "ClickHouse has named collection "
                            + staging.config().namedCollection() + " but cannot read the sentinel object with it: "
                            + (unusable.equals(CREDENTIALS_REFUSED) ? "the store refused its credentials (wrong or "
                                + "expired keys, or keys without read access to the prefix)"
                                : "ClickHouse rejected the collection for an s3 read (keys it does not accept there, "
                                    + "or overrides it does not allow)"), Map.of("reason", unusable))
                    : Blocker.of(cluster ? BlockerCode.SINK_CLUSTER_PULL_UNSUPPORTED
                        : BlockerCode.FORMAT_PARQUET_READ_UNSUPPORTED, "clickhouse_read_access",
                    "ClickHouse could not read the sentinel Parquet object through "
                        + (cluster ? "s3Cluster" : "s3")), "clickhouse_read", t0);
            }
        }
        cleanup(uploaded, key, sentinel, blocked);
        return blocked;
    }

    private static final String WRITER = BlockerCode.SOURCE_COLUMNAR_WRITER_MISSING.code();
    private static final String PUT = BlockerCode.STORAGE_RUNTIME_PUT_DENIED.code();
    private static final String COLLECTION = BlockerCode.SINK_NAMED_COLLECTION_MISSING.code();
    private static final String CLUSTER = BlockerCode.SINK_CLUSTER_PULL_UNSUPPORTED.code();
    private static final String READ = BlockerCode.FORMAT_PARQUET_READ_UNSUPPORTED.code();

    static final String CREDENTIALS_REFUSED = "credentials_refused";
    static final String COLLECTION_REJECTED = "collection_rejected";
    /** What S3 (and S3-compatible stores) answer, through ClickHouse, to keys they do not accept. */
    private static final List<String> DENIED = List.of("response code: 403", "response code: 401",
        "check your aws credentials", "accessdenied", "access denied", "invalidaccesskeyid", "signaturedoesnotmatch",
        "the aws access key id");
    /** ClickHouse's refusals of a named collection's contents for an s3 call. */
    private static final List<String> REJECTED = List.of("named collection", "unexpected key");

    /**
     * Why reading the sentinel through an existing named collection failed, when the cause is the collection (the
     * runtime has just put the object, so the object and the prefix exist): {@value #CREDENTIALS_REFUSED} or
     * {@value #COLLECTION_REJECTED}; null for anything else (the store unreachable from ClickHouse, no Parquet
     * support), which stays {@code format.parquet_read_unsupported}.
     */
    static String collectionFault(ClickHouseQueryException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        if (DENIED.stream().anyMatch(m::contains)) {
            return CREDENTIALS_REFUSED;
        }
        return REJECTED.stream().anyMatch(m::contains) ? COLLECTION_REJECTED : null;
    }

    /** A failed probe that blocks the route: its blocker, and its result under the blocker's code and message. */
    private void fail(List<Blocker> blocked, Blocker blocker, String probe, long t0) {
        blocked.add(blocker);
        run.addProbe(ProbeResult.failed(run.plan().routeId(), probe, blocker.code(), t0, blocker.message()));
    }

    private void cleanup(boolean uploaded, String key, Path sentinel, List<Blocker> blocked) {
        ObjectStaging staging = run.resources().objectStaging();
        if (uploaded) {
            long t0 = System.nanoTime();
            try {
                staging.store().store().delete(key);
                run.addProbe(ProbeResult.passed(run.plan().routeId(), "runtime_delete", PUT, t0, null));
            } catch (RuntimeException e) {
                if (staging.config().requireRuntimeWrite()) {
                    fail(blocked, Blocker.of(BlockerCode.STORAGE_RUNTIME_PUT_DENIED, "runtime_access",
                        "the runtime writer cannot delete the sentinel object"), "runtime_delete", t0);
                } else {
                    run.addProbe(ProbeResult.failed(run.plan().routeId(), "runtime_delete", PUT, t0, "the runtime "
                        + "writer cannot delete the sentinel object; not blocking: preflight.require_runtime_write "
                        + "is false"));
                }
            }
        } else {
            run.addProbe(ProbeResult.skipped(run.plan().routeId(), "runtime_delete", PUT, "nothing was uploaded"));
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
        io.dpone.connect.PrivateFiles.ownDirectory(dir);
        Path file = dir.resolve("sentinel.parquet");
        ByteBuf buf = new ByteBuf(16);
        buf.writeLongLE(1L);
        try (ChunkWriter w = parquet.open(file, SENTINEL)) {
            w.write(new Object[] {1L}, buf);
        }
        return file;
    }
}
