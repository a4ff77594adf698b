package io.dpone.certify;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseEndpoints;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ColumnarFastPath;
import io.dpone.storage.RunPrefix;
import io.dpone.storage.StagingStore;

/**
 * Starts the engines once before the route matrix and keeps ClickHouse open until it ends, so no route's timing
 * carries a one-time start (the embedded ClickHouse loads a 560 MB library; the embedded S3 starts a server) and
 * the engine is not reloaded between routes. A failure here is not fatal: each route's own probes report it.
 */
final class EngineWarmup implements AutoCloseable {
    private final ClickHouseEndpoint clickhouse;

    private EngineWarmup(ClickHouseEndpoint clickhouse) {
        this.clickhouse = clickhouse;
    }

    static EngineWarmup start(BatchManifest manifest, ConnectionContext context, String runId) {
        ClickHouseEndpoint ch = null;
        try {
            ch = ClickHouseEndpoints.open(context.resolve(manifest.sink().connectionRef(), ConnectionType.CLICKHOUSE,
                "sink.connection_ref"));
            ch.operations().ping();
        } catch (RuntimeException ignored) {
            // reported by the routes' own probes
        }
        ColumnarFastPath.of(manifest.source().nativeTransfer()).ifPresent(cfg -> {
            try (StagingStore s = StagingStore.open(context.resolve(cfg.runtimeConnectionId(), ConnectionType.S3,
                    "runtime_access"), RunPrefix.of(cfg.uriPrefix(), runId).bucket())) {
                s.store().list(RunPrefix.of(cfg.uriPrefix(), runId).keyPrefix());
            } catch (RuntimeException ignored) {
                // reported by the object-storage routes' own probes
            }
        });
        return new EngineWarmup(ch);
    }

    @Override
    public void close() {
        if (clickhouse != null) {
            clickhouse.close();
        }
    }
}
