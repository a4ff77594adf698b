package io.dpone.clickhouse;

import io.dpone.connect.Secret;
import io.dpone.storage.EmbeddedS3;
import io.dpone.storage.S3ObjectStore;
import java.nio.file.Path;

/**
 * The contract's object storage on S3Proxy in this JVM ({@link EmbeddedS3}, in memory) with one bucket: for the
 * implementations that read object storage (the embedded engine, the twin), whose test classes are tagged for it.
 */
final class LoopbackS3 implements ClickHouseOperationsContract.ObjectStorage {
    private static final String BUCKET = "dpone-contract";

    private final EmbeddedS3 s3;
    private final S3ObjectStore store;

    private LoopbackS3(EmbeddedS3 s3, S3ObjectStore store) {
        this.s3 = s3;
        this.store = store;
    }

    /** Starts one; close it when done. */
    static LoopbackS3 start() {
        EmbeddedS3 s3 = EmbeddedS3.inMemory();
        try {
            s3.createBucket(BUCKET);
            return new LoopbackS3(s3, s3.store(BUCKET, S3ObjectStore.Tuning.DEFAULTS));
        } catch (RuntimeException e) {
            s3.close();
            throw e;
        }
    }

    @Override
    public String bucketUrl() {
        return s3.endpoint() + "/" + BUCKET;
    }

    @Override
    public Secret accessKey() {
        return Secret.of(s3.accessKey());
    }

    @Override
    public Secret secretKey() {
        return Secret.of(s3.secretKey());
    }

    @Override
    public void put(String key, Path file) {
        store.put(key, file);
    }

    @Override
    public void close() {
        try {
            store.close();
        } finally {
            s3.close();
        }
    }
}
