package io.dpone.storage;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.LegacyMd5Plugin;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;

/**
 * {@link ObjectStore} over the AWS SDK v2 synchronous {@link S3Client}: path-style addressing (so
 * {@code http://host:port/bucket/key} works for S3Proxy, MinIO and chDB), static credentials, and checksums only
 * where S3 requires them (the SDK's default, a CRC32 trailer on every upload, breaks S3Proxy). Every upload carries a
 * Content-MD5 so the server verifies what it stored. Files above {@link Tuning#multipartThreshold()} are uploaded
 * with CreateMultipartUpload/UploadPart/CompleteMultipartUpload, and the upload is aborted if any step fails.
 *
 * <p>Thread-safe; close it to release the HTTP connection pool.
 */
public final class S3ObjectStore implements ObjectStore, AutoCloseable {
    /** Default region when none is given. S3Proxy and MinIO accept any region; chDB signs with this one. */
    public static final String DEFAULT_REGION = "us-east-1";
    private static final long MIB = 1024L * 1024L;

    /**
     * Size knobs. {@code partSize} is buffered in memory once per concurrent {@code put}.
     *
     * @param multipartThreshold files strictly larger than this go up in parts
     * @param partSize           part size; S3 requires at least 5 MiB for all parts but the last
     * @param pageSize           keys per ListObjectsV2 page and per DeleteObjects batch (1..1000)
     */
    public record Tuning(long multipartThreshold, long partSize, int pageSize) {
        public static final long MIN_PART_SIZE = 5 * MIB;
        public static final long MAX_PART_SIZE = 1024 * MIB;
        public static final Tuning DEFAULTS = new Tuning(64 * MIB, 16 * MIB, 1000);

        public Tuning {
            if (multipartThreshold < 0) {
                throw new IllegalArgumentException("multipartThreshold must be >= 0, got " + multipartThreshold);
            }
            if (partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
                throw new IllegalArgumentException("partSize must be between 5 MiB and 1 GiB, got " + partSize);
            }
            if (pageSize < 1 || pageSize > 1000) {
                throw new IllegalArgumentException("pageSize must be between 1 and 1000, got " + pageSize);
            }
        }
    }

    private final S3Client s3;
    private final String endpoint;
    private final String bucket;
    private final Tuning tuning;
    private final S3Failures failures;
    private final S3MultipartUpload multipart;

    private S3ObjectStore(S3Client s3, String endpoint, String bucket, Tuning tuning) {
        this.s3 = s3;
        this.endpoint = endpoint;
        this.bucket = bucket;
        this.tuning = tuning;
        this.failures = new S3Failures(s3, bucket);
        this.multipart = new S3MultipartUpload(s3, bucket, tuning.partSize(), failures);
    }

    /** Connects with {@link Tuning#DEFAULTS}. See {@link #connect(String, String, String, String, String, Tuning)}. */
    public static S3ObjectStore connect(String endpoint, String region, String accessKey, String secretKey,
                                        String bucket) {
        return connect(endpoint, region, accessKey, secretKey, bucket, Tuning.DEFAULTS);
    }

    /**
     * Builds the client; no request is sent, so bad credentials or an unreachable endpoint surface on first use.
     *
     * @param endpoint endpoint override such as {@code http://127.0.0.1:9000}; null or blank for AWS itself
     * @param region   signing region; null or blank means {@value #DEFAULT_REGION}
     */
    public static S3ObjectStore connect(String endpoint, String region, String accessKey, String secretKey,
                                        String bucket, Tuning tuning) {
        return connect(endpoint, region, accessKey, secretKey, bucket, tuning, List.of());
    }

    /**
     * The bounds of one S3 call (docs/connections.md, "Timeouts"): {@code apiCall} covers the call with its retries,
     * {@code attempt} one HTTP attempt, however slowly the server answers (AWS SDK {@code apiCallTimeout},
     * {@code apiCallAttemptTimeout}).
     */
    public record Timeouts(java.time.Duration apiCall, java.time.Duration attempt) {
        public static final Timeouts DEFAULTS = new Timeouts(java.time.Duration.ofMinutes(15),
            java.time.Duration.ofMinutes(5));
    }

    /** As above, with extra SDK interceptors (tests use them to observe or break requests). */
    static S3ObjectStore connect(String endpoint, String region, String accessKey, String secretKey,
                                 String bucket, Tuning tuning, List<ExecutionInterceptor> interceptors) {
        return connect(endpoint, region, accessKey, secretKey, bucket, tuning, Timeouts.DEFAULTS, interceptors);
    }

    /** With explicit call bounds ({@code options.api_call_timeout}, {@code options.api_call_attempt_timeout}). */
    public static S3ObjectStore connect(String endpoint, String region, String accessKey, String secretKey,
                                        String bucket, Tuning tuning, Timeouts timeouts,
                                        List<ExecutionInterceptor> interceptors) {
        return connect(endpoint, region, accessKey, secretKey, bucket, tuning, timeouts, interceptors, true);
    }

    /**
     * As above; {@code sdkRetries} false turns the SDK's own retries off (its standard mode otherwise: 3 attempts per
     * request), for a run whose {@link RetryingObjectStore} retries under the run's budget, the single bound.
     */
    public static S3ObjectStore connect(String endpoint, String region, String accessKey, String secretKey,
                                        String bucket, Tuning tuning, Timeouts timeouts,
                                        List<ExecutionInterceptor> interceptors, boolean sdkRetries) {
        if (accessKey == null || accessKey.isBlank() || secretKey == null || secretKey.isBlank()) {
            throw new IllegalArgumentException("S3 access key and secret key are required");
        }
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("S3 bucket is required");
        }
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(ApacheHttpClient.builder())
                .region(Region.of(region == null || region.isBlank() ? DEFAULT_REGION : region))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                // DeleteObjects must carry a checksum. The SDK always sends x-amz-checksum-crc32 (S3Proxy 2.6 only
                // accepts it with ignore-unknown-headers, see EmbeddedS3); stores predating flexible checksums
                // want Content-MD5 instead, so this plugin adds that too.
                .addPlugin(LegacyMd5Plugin.create())
                .overrideConfiguration(c -> {
                    c.apiCallTimeout(timeouts.apiCall()).apiCallAttemptTimeout(timeouts.attempt());
                    if (!sdkRetries) {
                        c.retryStrategy(software.amazon.awssdk.awscore.retry.AwsRetryStrategy.doNotRetry());
                    }
                    interceptors.forEach(c::addExecutionInterceptor);
                });
        String base = null;
        if (endpoint != null && !endpoint.isBlank()) {
            base = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
            builder.endpointOverride(URI.create(base));
        }
        return new S3ObjectStore(builder.build(), base, bucket, Objects.requireNonNull(tuning, "tuning"));
    }

    public String bucket() {
        return bucket;
    }

    /**
     * Path-style URL of {@code key} ({@code endpoint/bucket/key}, each key segment percent-encoded), as chDB's
     * {@code s3()} table function expects. Requires an endpoint override.
     */
    public String url(String key) {
        if (endpoint == null) {
            throw new IllegalStateException("url() needs an endpoint override");
        }
        StringBuilder sb = new StringBuilder(endpoint).append('/').append(bucket);
        for (String segment : checkKey(key).split("/", -1)) {
            sb.append('/').append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return sb.toString();
    }

    @Override
    public void put(String key, Path file) {
        checkKey(key);
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new ObjectStoreException(ObjectStoreException.Reason.FAILED,
                    "cannot read local file " + file + " for upload to " + failures.where(key) + " ("
                            + e.getClass().getSimpleName() + ")", e);
        }
        if (size > tuning.multipartThreshold()) {
            multipart.put(key, file, size);
        } else {
            try {
                String md5 = ContentMd5.of(file);
                s3.putObject(b -> b.bucket(bucket).key(key).contentLength(size).contentMD5(md5),
                        RequestBody.fromFile(file));
            } catch (IOException | RuntimeException e) {
                throw failures.failUpload("PutObject", key, e);
            }
        }
    }

    /** A multipart upload fed part by part, every part with its Content-MD5; aborted if any step fails. */
    @Override
    public PartUpload startUpload(String key) {
        return multipart.start(checkKey(key));
    }

    @Override
    public InputStream get(String key) {
        checkKey(key);
        try {
            return s3.getObject(b -> b.bucket(bucket).key(key));
        } catch (RuntimeException e) {
            throw failures.fail("GetObject", key, e);
        }
    }

    @Override
    public List<String> list(String prefix) {
        return new ArrayList<>(listModified(prefix).keySet()); // one listing, in the store's order
    }

    @Override
    public java.util.Map<String, java.time.Instant> listModified(String prefix) {
        String p = prefix == null ? "" : prefix;
        java.util.Map<String, java.time.Instant> out = new java.util.LinkedHashMap<>();
        try {
            s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(p).maxKeys(tuning.pageSize()))
                    .forEach(page -> page.contents().forEach(o -> out.put(o.key(), o.lastModified())));
        } catch (RuntimeException e) {
            throw failures.fail("ListObjectsV2", p + "*", e);
        }
        return out;
    }

    @Override
    public void delete(String key) {
        checkKey(key);
        try {
            s3.deleteObject(b -> b.bucket(bucket).key(key));
        } catch (RuntimeException e) {
            throw failures.fail("DeleteObject", key, e);
        }
    }

    @Override
    public int deletePrefix(String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("deletePrefix needs a non-empty prefix");
        }
        List<String> keys = list(prefix);
        for (int from = 0; from < keys.size(); from += tuning.pageSize()) {
            List<ObjectIdentifier> batch = keys.subList(from, Math.min(keys.size(), from + tuning.pageSize()))
                    .stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList();
            DeleteObjectsResponse response;
            try {
                response = s3.deleteObjects(b -> b.bucket(bucket)
                        .delete(Delete.builder().objects(batch).quiet(true).build()));
            } catch (RuntimeException e) {
                throw failures.fail("DeleteObjects", prefix + "*", e);
            }
            if (response.hasErrors() && !response.errors().isEmpty()) {
                S3Error first = response.errors().get(0);
                throw new ObjectStoreException(ObjectStoreException.Reason.FAILED, "DeleteObjects "
                        + failures.where(prefix + "*") + " failed for " + response.errors().size()
                        + " key(s), first " + first.key() + ": " + first.code(), null);
            }
        }
        return keys.size();
    }

    @Override
    public void close() {
        s3.close();
    }

    @Override
    public String toString() {
        return "S3ObjectStore[" + (endpoint == null ? "aws" : endpoint) + ", bucket=" + bucket + "]";
    }

    private static String checkKey(String key) {
        if (key == null || key.isEmpty() || key.startsWith("/")) {
            throw new IllegalArgumentException("object key must be non-empty and must not start with '/': " + key);
        }
        return key;
    }
}
