package io.dpone.route;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.ClickHouseBulk;
import io.dpone.manifest.ColumnarFastPath;
import io.dpone.storage.RunPrefix;
import io.dpone.storage.StagingStore;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Object-storage routes' first step, before any source IO: resolve the staging prefix and the runtime writer
 * credential, provision or check ClickHouse's read access, and run the capability probes
 * ({@link ObjectStorageProbes}). Any failed probe blocks the route with its spec code.
 */
public final class PrepareObjectStorageProcessor implements Processor {
    /** Set by the route YAML: {@code s3} or {@code s3Cluster}. */
    public static final String PULL_FUNCTION = "dponePullFunction";
    private static final String PATH = "source.options.native_transfer.snapshot.columnar_fast_path";

    @Override
    public void process(Exchange exchange) {
        TransferRun run = exchange.getIn().getBody(TransferRun.class);
        exchange.setProperty(RouteProperties.RUN, run);
        long t0 = System.nanoTime();
        ColumnarFastPath cfg = ColumnarFastPath.of(run.plan().manifest().source().nativeTransfer())
            .orElseThrow(() -> new DponeException(BlockerCode.MANIFEST_MISSING_FIELD, PATH,
                "object-storage routes need the columnar_fast_path.object_storage block"));
        require(cfg.uriPrefix(), PATH + ".object_storage.uri_prefix");
        require(cfg.runtimeConnectionId(), PATH + ".object_storage.runtime_access.connection_id");
        if ("named_collection".equals(cfg.readMode())) {
            require(cfg.namedCollection(), PATH + ".object_storage.clickhouse_read_access.named_collection");
        }
        String planned = exchange.getProperty(PULL_FUNCTION, "s3", String.class);
        ClickHouseBulk bulk = ClickHouseBulk.of(run.plan().manifest().sink().options().clickhouseBulk());
        RunPrefix prefix;
        try {
            prefix = RunPrefix.of(cfg.uriPrefix(), run.plan().runId());
        } catch (IllegalArgumentException e) {
            throw new DponeException(BlockerCode.MANIFEST_INVALID_VALUE, PATH + ".object_storage.uri_prefix",
                e.getMessage());
        }
        // opening the engine is every route's setup (the other routes time it in prepare): not the preflight's cost
        long open0 = System.nanoTime();
        ClickHouseEndpoint clickhouse = run.openClickHouse();
        long opening = System.nanoTime() - open0;
        run.counters().addStep("prepare", open0);
        ProbeResult clusterOutcome = planned.equals("s3Cluster") ? clusterPolicy(run, bulk) : null;
        String function = clusterOutcome == null ? planned : "s3";
        StagingStore store = run.plan().connectors().stagingStore(run.plan().context().resolve(
            cfg.runtimeConnectionId(), ConnectionType.S3, PATH + ".object_storage.runtime_access.connection_id"),
            prefix.bucket(), run.retries());
        run.resources().objectStaging(new ObjectStaging(store, prefix, cfg, function, bulk.cluster()));
        if (store.embedded() && "named_collection".equals(cfg.readMode()) && "embedded".equals(clickhouse.kind())) {
            provisionNamedCollection(clickhouse, cfg.namedCollection(), store);
        }
        List<Blocker> blocked = new ObjectStorageProbes(run).run(function.equals("s3Cluster"), clusterOutcome);
        run.counters().addStep("preflight", t0 + opening);
        if (!blocked.isEmpty()) {
            throw new DponeException(blocked);
        }
        // the prefix is this run's own: whatever a crashed attempt of the same run id left must not be pulled
        try {
            run.resources().objectStaging().deleteAll();
        } catch (RuntimeException e) { // reached only with preflight.require_runtime_write: false
            throw new DponeException(BlockerCode.STORAGE_RUNTIME_PUT_DENIED, "runtime_access",
                "the runtime writer cannot list and delete under the run prefix, which every object-storage route "
                    + "needs");
        }
    }

    /**
     * {@code sink.options.clickhouse_bulk.columnar_pull.use_cluster_function} for a route that plans an
     * {@code s3Cluster} pull: {@code always} pulls with s3Cluster and is blocked ({@code sink.cluster_pull_unsupported})
     * without the cluster (the probes check it); {@code auto} (the default) does the same when {@code system.clusters}
     * has the cluster and otherwise pulls with s3(), with a note on the run and a failed, non-blocking {@code cluster}
     * probe; {@code never} pulls with s3(). Returns null to keep s3Cluster, or the {@code cluster} probe's result
     * when the run pulls with s3() instead.
     */
    private static ProbeResult clusterPolicy(TransferRun run, ClickHouseBulk bulk) {
        String route = run.plan().routeId();
        String code = BlockerCode.SINK_CLUSTER_PULL_UNSUPPORTED.code();
        if ("never".equals(bulk.useClusterFunction())) {
            run.addNote("pulled with s3() instead of s3Cluster(): use_cluster_function is never");
            return ProbeResult.skipped(route, "cluster", code, "use_cluster_function is never: the route pulls with "
                + "s3()");
        }
        if (!"auto".equals(bulk.useClusterFunction())) {
            return null;
        }
        long t0 = System.nanoTime();
        if (bulk.cluster() != null && run.clickhouse().operations().clusterExists(bulk.cluster())) {
            return null;
        }
        String why = "ClickHouse has no cluster " + (bulk.cluster() == null ? "(none configured)" : bulk.cluster())
            + " for s3Cluster";
        run.addNote("pulled with s3() instead of s3Cluster(): " + why + " (use_cluster_function: auto)");
        return ProbeResult.failed(route, "cluster", code, t0, why + "; not blocking: use_cluster_function is auto, "
            + "so the route pulls with s3()");
    }

    private static void require(String value, String path) {
        if (value == null || value.isBlank()) {
            throw new DponeException(BlockerCode.MANIFEST_MISSING_FIELD, path, "required for object-storage routes");
        }
    }

    /**
     * The embedded engine reads the embedded store with keys generated at each start, so dpone (owning both)
     * writes the named collection itself. A real ClickHouse's collection is platform-owned and only checked.
     */
    private static void provisionNamedCollection(ClickHouseEndpoint ch, String name, StagingStore store) {
        try {
            ch.operations().replaceNamedCollection(name, store.accessKey(), store.secretKey());
        } catch (ClickHouseQueryException e) {
            throw new DponeException(BlockerCode.SINK_NAMED_COLLECTION_MISSING, "clickhouse_read_access",
                "the embedded ClickHouse refused to create named collection " + name);
        }
    }
}
