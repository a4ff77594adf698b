package io.dpone.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Properties;

import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * An in-process S3 endpoint (S3Proxy over a jclouds blobstore) on {@code 127.0.0.1} and a free port, with AWS
 * Signature V2/V4 authentication against a random access key and secret generated per start. Objects live either
 * in a directory ({@link #filesystem(Path)}, one sub-directory per bucket) or in memory ({@link #inMemory()}).
 * Path-style only: {@code http://127.0.0.1:PORT/bucket/key}.
 *
 * <p>The directory store uses S3Proxy's {@code filesystem-nio2} provider: the older jclouds {@code filesystem}
 * provider lists every intermediate directory as an extra key ({@code run/} next to {@code run/a.txt}), which
 * real S3 never does.
 */
public final class EmbeddedS3 implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final BlobStoreContext context;
    private final S3Proxy proxy;
    private final String accessKey;
    private final String secretKey;

    private EmbeddedS3(BlobStoreContext context, S3Proxy proxy, String accessKey, String secretKey) {
        this.context = context;
        this.proxy = proxy;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
    }

    /** Starts an endpoint whose buckets are directories under {@code baseDir} (created if missing). */
    public static EmbeddedS3 filesystem(Path baseDir) {
        try {
            io.dpone.connect.PrivateFiles.ownDirectory(baseDir); // 0700; another user's directory or link is refused
        } catch (io.dpone.connect.PrivateFiles.Unsafe e) {
            throw new io.dpone.error.DponeException(io.dpone.error.BlockerCode.RUNTIME_UNSAFE_PATH, "s3",
                "the embedded S3 directory is not private: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create embedded S3 directory " + baseDir.getFileName(), e);
        }
        Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", baseDir.toAbsolutePath().toString());
        return start("filesystem-nio2", properties);
    }

    /** Starts an endpoint that keeps everything in memory; contents vanish on {@link #close()}. */
    public static EmbeddedS3 inMemory() {
        return start("transient", new Properties());
    }

    private static EmbeddedS3 start(String provider, Properties properties) {
        String accessKey = "DPONE" + randomHex(8).toUpperCase(Locale.ROOT);
        String secretKey = randomHex(20);
        BlobStoreContext context = ContextBuilder.newBuilder(provider)
                .credentials("local", "local")
                .overrides(properties)
                .build(BlobStoreContext.class);
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(context.getBlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                // AWS SDK v2 (2.30+) sends x-amz-checksum-crc32 on DeleteObjects; S3Proxy 2.6 answers
                // 501 NotImplemented for checksum headers it does not know unless told to ignore them.
                .ignoreUnknownHeaders(true)
                .build();
        try {
            proxy.start();
        } catch (Exception e) {
            context.close();
            throw new IllegalStateException("embedded S3 failed to start (" + e.getClass().getSimpleName() + ")", e);
        }
        return new EmbeddedS3(context, proxy, accessKey, secretKey);
    }

    /** {@code http://127.0.0.1:PORT}, without a trailing slash. */
    public String endpoint() {
        return "http://127.0.0.1:" + proxy.getPort();
    }

    public int port() {
        return proxy.getPort();
    }

    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    /**
     * Creates {@code bucket} directly in the backing blobstore; a no-op if it already exists. The name must follow
     * S3 rules: S3Proxy answers NoSuchBucket for names it considers invalid even when the blobstore has them.
     */
    public void createBucket(String bucket) {
        if (bucket == null || !RunPrefix.BUCKET.matcher(bucket).matches()) {
            throw new IllegalArgumentException("invalid S3 bucket name: " + bucket);
        }
        context.getBlobStore().createContainerInLocation(null, bucket);
    }

    /** A store for {@code bucket} on this endpoint, signed with this endpoint's credentials. */
    public S3ObjectStore store(String bucket, S3ObjectStore.Tuning tuning) {
        return S3ObjectStore.connect(endpoint(), S3ObjectStore.DEFAULT_REGION, accessKey, secretKey, bucket, tuning);
    }

    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (Exception e) {
            throw new IllegalStateException("embedded S3 failed to stop (" + e.getClass().getSimpleName() + ")", e);
        } finally {
            context.close();
        }
    }

    @Override
    public String toString() {
        return "EmbeddedS3[" + endpoint() + "]";
    }

    private static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
