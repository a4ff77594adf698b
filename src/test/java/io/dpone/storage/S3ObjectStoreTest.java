package io.dpone.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

@io.dpone.testing.EngineTest
class S3ObjectStoreTest {
    private static final long MIB = 1024 * 1024;
    private static final AtomicInteger BUCKETS = new AtomicInteger();

    @TempDir
    static Path dir;
    static EmbeddedS3 s3;
    static S3Client raw;

    @BeforeAll
    static void start() {
        s3 = EmbeddedS3.filesystem(dir.resolve("blobs"));
        raw = S3Client.builder()
                .endpointOverride(URI.create(s3.endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(s3.accessKey(), s3.secretKey())))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .build();
    }

    @AfterAll
    static void stop() {
        raw.close();
        s3.close();
    }

    private static String newBucket() {
        String bucket = "test-" + BUCKETS.incrementAndGet();
        s3.createBucket(bucket);
        return bucket;
    }

    private static S3ObjectStore store(String bucket, S3ObjectStore.Tuning tuning) {
        return s3.store(bucket, tuning);
    }

    private static Path file(String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    private static byte[] read(ObjectStore store, String key) throws IOException {
        try (InputStream in = store.get(key)) {
            return in.readAllBytes();
        }
    }

    @Test
    void putGetListDeleteRoundTrip() throws IOException {
        try (S3ObjectStore store = store(newBucket(), S3ObjectStore.Tuning.DEFAULTS)) {
            byte[] content = "hello, object store\n".getBytes(StandardCharsets.UTF_8);
            store.put("run/a.txt", file("a.txt", content));
            store.put("run/b.txt", file("b.txt", new byte[0]));
            store.put("other/c.txt", file("c.txt", content));

            assertArrayEquals(content, read(store, "run/a.txt"));
            assertArrayEquals(new byte[0], read(store, "run/b.txt"));
            assertEquals(List.of("run/a.txt", "run/b.txt"), store.list("run/"));
            assertEquals(List.of("other/c.txt", "run/a.txt", "run/b.txt"), store.list(""));

            store.delete("run/a.txt");
            store.delete("run/a.txt"); // idempotent
            assertEquals(List.of("run/b.txt"), store.list("run/"));
            ObjectStoreException missing = assertThrows(ObjectStoreException.class, () -> store.get("run/a.txt"));
            assertEquals(ObjectStoreException.Reason.NOT_FOUND, missing.reason());
        }
    }

    @Test
    void putReplacesAndKeysWithSpecialCharactersRoundTrip() throws IOException {
        try (S3ObjectStore store = store(newBucket(), S3ObjectStore.Tuning.DEFAULTS)) {
            String key = "p/with space/ü+plus=1.parquet";
            store.put(key, file("s1", new byte[] {1, 2, 3}));
            store.put(key, file("s2", new byte[] {4, 5}));
            assertArrayEquals(new byte[] {4, 5}, read(store, key));
            assertEquals(List.of(key), store.list("p/"));
            assertEquals(s3.endpoint() + "/" + store.bucket() + "/p/with%20space/%C3%BC%2Bplus%3D1.parquet",
                    store.url(key));
        }
    }

    private static S3ObjectStore recorded(String bucket, S3ObjectStore.Tuning tuning, RecordingInterceptor recorder) {
        return S3ObjectStore.connect(s3.endpoint(), null, s3.accessKey(), s3.secretKey(), bucket, tuning,
                List.of(recorder));
    }

    @Test
    void largeFileGoesUpInPartsAndReadsBackIdentically() throws IOException {
        S3ObjectStore.Tuning tuning = new S3ObjectStore.Tuning(5 * MIB, 5 * MIB, 1000);
        byte[] content = new byte[(int) (6 * MIB) + 123];
        new Random(42).nextBytes(content);
        String bucket = newBucket();
        RecordingInterceptor recorder = new RecordingInterceptor();
        try (S3ObjectStore store = recorded(bucket, tuning, recorder)) {
            long t0 = System.nanoTime();
            store.put("big/data.bin", file("big.bin", content));
            System.out.println("multipart put of " + content.length + " bytes took "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms");
            assertEquals(List.of("CreateMultipartUpload", "UploadPart", "UploadPart", "CompleteMultipartUpload"),
                    recorder.operations);

            assertArrayEquals(content, read(store, "big/data.bin"));
            assertEquals(content.length, raw.headObject(b -> b.bucket(bucket).key("big/data.bin")).contentLength());
            assertEquals(List.of("big/data.bin"), store.list(""), "no part leftovers may be visible");
            assertTrue(raw.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty(),
                    "no multipart upload may stay open");
        }
    }

    @Test
    void aPartByPartUploadIsInvisibleUntilCompleteAndReadsBackIdentically() throws IOException {
        byte[] content = new byte[(int) (5 * MIB) + 77];
        new Random(11).nextBytes(content);
        String bucket = newBucket();
        RecordingInterceptor recorder = new RecordingInterceptor();
        try (S3ObjectStore store = recorded(bucket, S3ObjectStore.Tuning.DEFAULTS, recorder)) {
            PartUpload upload = store.startUpload("grow/data.bin");
            upload.part(java.util.Arrays.copyOf(content, (int) (5 * MIB)), (int) (5 * MIB));
            // S3Proxy's directory store keeps the open upload's parts as hidden objects at the bucket's root
            // (.mpus-<id>-<key>-<n>); under the key's own prefix, as on S3, nothing is there before completion
            assertEquals(List.of(), store.list("grow/"), "nothing is visible before the upload completes");
            upload.part(java.util.Arrays.copyOfRange(content, (int) (5 * MIB), content.length), 77);
            upload.complete();
            upload.abort(); // a no-op once complete
            assertEquals(List.of("CreateMultipartUpload", "UploadPart", "ListObjectsV2", "UploadPart",
                    "CompleteMultipartUpload"), recorder.operations);
            assertArrayEquals(content, read(store, "grow/data.bin"));
            assertEquals(List.of("grow/data.bin"), store.list(""), "no part leftovers may be visible");
            assertTrue(raw.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty());
        }
    }

    @Test
    void anAbortedPartByPartUploadLeavesNothing() throws IOException {
        String bucket = newBucket();
        try (S3ObjectStore store = store(bucket, S3ObjectStore.Tuning.DEFAULTS)) {
            PartUpload upload = store.startUpload("gone/data.bin");
            upload.part(new byte[(int) (5 * MIB)], (int) (5 * MIB));
            upload.abort();
            assertEquals(List.of(), store.list(""));
            assertTrue(raw.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty(),
                    "the aborted upload must not stay open");
        }
    }

    @Test
    void fileAtThresholdIsASinglePut() throws IOException {
        S3ObjectStore.Tuning tuning = new S3ObjectStore.Tuning(5 * MIB, 5 * MIB, 1000);
        RecordingInterceptor recorder = new RecordingInterceptor();
        try (S3ObjectStore store = recorded(newBucket(), tuning, recorder)) {
            byte[] content = new byte[(int) (5 * MIB)];
            new Random(7).nextBytes(content);
            store.put("k", file("exact.bin", content));
            assertEquals(List.of("PutObject"), recorder.operations);
            assertArrayEquals(content, read(store, "k"));
        }
    }

    @Test
    void multipartUploadIsAbortedWhenAPartFails() throws IOException {
        S3ObjectStore.Tuning tuning = new S3ObjectStore.Tuning(5 * MIB, 5 * MIB, 1000);
        String bucket = newBucket();
        RecordingInterceptor recorder = new RecordingInterceptor("UploadPart", 2);
        try (S3ObjectStore store = recorded(bucket, tuning, recorder)) {
            ObjectStoreException e = assertThrows(ObjectStoreException.class,
                    () -> store.put("half/data.bin", file("half.bin", new byte[(int) (11 * MIB)])));
            assertEquals(ObjectStoreException.Reason.FAILED, e.reason(), e.getMessage());
            assertEquals(List.of("CreateMultipartUpload", "UploadPart", "UploadPart", "AbortMultipartUpload"),
                    recorder.operations);
            assertTrue(raw.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty(),
                    "the failed upload must be aborted");
            assertEquals(List.of(), store.list(""));
        }
    }

    @Test
    void uploadsToAMissingBucketAreNotFound() throws IOException {
        // S3Proxy answers before reading the body and drops the connection; the store must still say NOT_FOUND
        Path f = file("nb.bin", new byte[(int) (6 * MIB)]);
        for (S3ObjectStore.Tuning tuning : List.of(S3ObjectStore.Tuning.DEFAULTS,
                new S3ObjectStore.Tuning(5 * MIB, 5 * MIB, 1000))) {
            try (S3ObjectStore store = store("no-such-bucket", tuning)) {
                ObjectStoreException e = assertThrows(ObjectStoreException.class, () -> store.put("k", f));
                assertEquals(ObjectStoreException.Reason.NOT_FOUND, e.reason(), e.getMessage());
            }
        }
    }

    @Test
    void listFollowsContinuationTokens() throws IOException {
        String bucket = newBucket();
        RecordingInterceptor recorder = new RecordingInterceptor();
        try (S3ObjectStore store = recorded(bucket, new S3ObjectStore.Tuning(64 * MIB, 16 * MIB, 2), recorder)) {
            Path f = file("one", new byte[] {1});
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                expected.add("pages/k" + i);
                store.put("pages/k" + i, f);
            }
            store.put("pagesX", f);
            // the server really pages at 2 keys, so list() must follow continuation tokens to see all 7
            assertTrue(raw.listObjectsV2(b -> b.bucket(bucket).prefix("pages/").maxKeys(2)).isTruncated());
            assertEquals(expected, store.list("pages/"));
            assertEquals(4, recorder.count("ListObjectsV2"), "7 keys at 2 per page");
        }
    }

    @Test
    void deletePrefixRemovesOnlyThatPrefixInBatches() throws IOException {
        String bucket = newBucket();
        RecordingInterceptor recorder = new RecordingInterceptor();
        try (S3ObjectStore store = recorded(bucket, new S3ObjectStore.Tuning(64 * MIB, 16 * MIB, 2), recorder)) {
            Path f = file("two", new byte[] {2});
            for (String key : List.of("stage/run-a/t1/part-0", "stage/run-a/t1/part-1", "stage/run-a/t2/part-0",
                    "stage/run-a/manifest.json", "stage/run-a/x", "stage/run-ab/keep", "stage/run-b/keep")) {
                store.put(key, f);
            }
            assertEquals(5, store.deletePrefix("stage/run-a/"));
            assertEquals(3, recorder.count("DeleteObjects"), "5 keys at 2 per batch");
            assertEquals(List.of("stage/run-ab/keep", "stage/run-b/keep"), store.list(""));
            assertEquals(0, store.deletePrefix("stage/run-a/"));
            assertThrows(IllegalArgumentException.class, () -> store.deletePrefix(""));
        }
    }

    @Test
    void wrongCredentialsFailTypedWithoutLeakingSecrets() throws IOException {
        String bucket = newBucket();
        Path f = file("cred", new byte[] {3});
        String wrongSecret = "wrong-secret-" + s3.secretKey().substring(0, 6) + "zz";
        try (S3ObjectStore badSecret = S3ObjectStore.connect(s3.endpoint(), null, s3.accessKey(), wrongSecret, bucket);
             S3ObjectStore badKey = S3ObjectStore.connect(s3.endpoint(), null, "NOPE" + s3.accessKey(),
                     s3.secretKey(), bucket)) {
            Path big = file("cred-big", new byte[(int) (6 * MIB)]);
            List<ObjectStoreException> failures = List.of(
                    assertThrows(ObjectStoreException.class, () -> badSecret.put("k", f)),
                    assertThrows(ObjectStoreException.class, () -> badSecret.put("k", big)),
                    assertThrows(ObjectStoreException.class, () -> badSecret.list("")),
                    assertThrows(ObjectStoreException.class, () -> badKey.get("k")),
                    assertThrows(ObjectStoreException.class, () -> badKey.deletePrefix("k")));
            for (ObjectStoreException e : failures) {
                assertEquals(ObjectStoreException.Reason.ACCESS_DENIED, e.reason(), e.getMessage());
                for (Throwable t = e; t != null; t = t.getCause()) {
                    for (String secret : List.of(s3.secretKey(), wrongSecret, s3.accessKey())) {
                        assertFalse(String.valueOf(t.getMessage()).contains(secret),
                                "message leaks a credential: " + t.getMessage());
                    }
                }
                assertTrue(e.getMessage().contains("s3://" + bucket + "/"), e.getMessage());
            }
        }
        assertFalse(s3.toString().contains(s3.secretKey()));
    }

    @Test
    void unreachableEndpointIsTyped() throws IOException {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (S3ObjectStore store = S3ObjectStore.connect("http://127.0.0.1:" + port, null, "a", "b", "bucket")) {
            ObjectStoreException e = assertThrows(ObjectStoreException.class, () -> store.list("x"));
            assertEquals(ObjectStoreException.Reason.UNREACHABLE, e.reason(), e.getMessage());
        }
    }

    @Test
    void inMemoryEndpointWorks() throws IOException {
        try (EmbeddedS3 mem = EmbeddedS3.inMemory()) {
            mem.createBucket("mem");
            try (S3ObjectStore store = mem.store("mem", S3ObjectStore.Tuning.DEFAULTS)) {
                store.put("a/b", file("mem.bin", new byte[] {9, 8}));
                assertArrayEquals(new byte[] {9, 8}, read(store, "a/b"));
                assertEquals(1, store.deletePrefix("a/"));
                assertEquals(List.of(), store.list(""));
            }
            assertTrue(mem.endpoint().startsWith("http://127.0.0.1:"));
            assertTrue(mem.port() != s3.port());
        }
    }

    @Test
    void tuningRejectsPartsBelowTheS3Minimum() {
        assertThrows(IllegalArgumentException.class, () -> new S3ObjectStore.Tuning(64 * MIB, 4 * MIB, 1000));
        assertThrows(IllegalArgumentException.class, () -> new S3ObjectStore.Tuning(64 * MIB, 16 * MIB, 1001));
        assertThrows(IllegalArgumentException.class, () -> new S3ObjectStore.Tuning(64 * MIB, 16 * MIB, 0));
    }
}
