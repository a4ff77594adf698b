package io.dpone.route;

import io.dpone.clickhouse.ChunkLoads.ObjectRead;
import io.dpone.manifest.ColumnarFastPath;
import io.dpone.storage.RunPrefix;
import io.dpone.storage.StagingStore;

/**
 * A run's object-storage staging: the store, the run-scoped prefix, and how ClickHouse reads from it (a named
 * collection, so no secret is written into SQL; or, for non-production only, inline keys).
 */
public record ObjectStaging(StagingStore store, RunPrefix prefix, ColumnarFastPath config, String pullFunction,
                            String cluster) {

    /** How ClickHouse reads {@code key} (a glob is allowed) in {@code format} with {@code structure}. */
    public ObjectRead read(String key, String format, String structure) {
        String url = store.clickHouseUrl(key);
        String onCluster = pullFunction.equals("s3Cluster") ? cluster : null;
        if ("named_collection".equals(config.readMode())) {
            return new ObjectRead(pullFunction, onCluster, url, config.namedCollection(), null, null, format,
                structure);
        }
        return new ObjectRead(pullFunction, onCluster, url, null, store.accessKey(), store.secretKey(), format,
            structure);
    }

    /** Deletes every object under the run's own prefix (and only there). */
    public void deleteAll() {
        store.store().deletePrefix(prefix.keyPrefix());
    }

    /** How many objects remain under the run's own prefix. */
    public int remaining() {
        return store.store().list(prefix.keyPrefix()).size();
    }

    /** The object key of a chunk file name under the run prefix. */
    public String key(String fileName) {
        return prefix.key(fileName);
    }
}
