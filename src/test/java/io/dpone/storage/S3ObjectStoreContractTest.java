package io.dpone.storage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 store keeps the {@link ObjectStore} contract against S3Proxy (in process, filesystem blobs), with a list
 * page of 10 keys so that listing and bulk deletes cross pages.
 */
@io.dpone.testing.EngineTest
class S3ObjectStoreContractTest extends ObjectStoreContract {
    private static final AtomicInteger BUCKETS = new AtomicInteger();

    @TempDir
    static Path blobs;
    static EmbeddedS3 s3;
    private final List<S3ObjectStore> opened = new ArrayList<>();

    @BeforeAll
    static void start() {
        s3 = EmbeddedS3.filesystem(blobs.resolve("blobs"));
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    @AfterEach
    void close() {
        opened.forEach(S3ObjectStore::close);
    }

    @Override
    ObjectStore store() {
        String bucket = "contract-" + BUCKETS.incrementAndGet();
        s3.createBucket(bucket);
        S3ObjectStore store = s3.store(bucket, new S3ObjectStore.Tuning(5L << 20, 5L << 20, 10));
        opened.add(store);
        return store;
    }
}
