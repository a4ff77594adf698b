package io.dpone.storage;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.Secret;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.nio.file.Path;
import java.util.List;
import java.util.HashMap;
import java.util.Map;

/**
 * The runtime's access to the object store that stages Parquet chunks, from an {@code s3} connection alias:
 * a real endpoint ({@code url}, {@code user} = access key id, password = secret key, {@code options.region},
 * {@code options.clickhouse_endpoint} when ClickHouse reaches the store under another address), or
 * {@code embedded: true}, an in-process S3Proxy under {@code options.path} that lives as long as the process.
 */
public final class StagingStore implements AutoCloseable {
    private static final Map<Path, EmbeddedS3> EMBEDDED = new HashMap<>();

    private final ObjectStore store;
    private final String bucket;
    private final String clickHouseEndpoint;
    private final Secret accessKey;
    private final Secret secretKey;
    private final boolean embedded;

    private StagingStore(ObjectStore store, String bucket, String clickHouseEndpoint, Secret accessKey,
                         Secret secretKey, boolean embedded) {
        this.store = store;
        this.bucket = bucket;
        this.clickHouseEndpoint = clickHouseEndpoint;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.embedded = embedded;
    }

    /** Opens the store for {@code bucket} through {@code spec}, with the SDK's own retries (no run budget). */
    public static StagingStore open(ConnectionSpec spec, String bucket) {
        return open(spec, bucket, null);
    }

    /**
     * Opens the store for a run: its puts and gets retry under the run's {@code budget} ({@link RetryingObjectStore}),
     * and the S3 client's own retries are off, so the budget is the single bound. A null budget keeps the SDK's.
     */
    public static StagingStore open(ConnectionSpec spec, String bucket, io.dpone.retry.RetryBudget budget) {
        StagingStore plain = openPlain(spec, bucket, budget == null);
        return budget == null ? plain : new StagingStore(new RetryingObjectStore(plain.store, budget), plain.bucket,
            plain.clickHouseEndpoint, plain.accessKey, plain.secretKey, plain.embedded);
    }

    private static StagingStore openPlain(ConnectionSpec spec, String bucket, boolean sdkRetries) {
        if (spec.embedded()) {
            // without a path: under DPONE_HOME (private), never a shared, predictable name in the temp directory
            EmbeddedS3 s3 = embedded(Path.of(spec.option("path",
                io.dpone.connect.EmbeddedDefaults.home().resolve("s3").toString())));
            s3.createBucket(bucket);
            Secret ak = Secret.of(s3.accessKey());
            Secret sk = Secret.of(s3.secretKey());
            return new StagingStore(s3.store(bucket, S3ObjectStore.Tuning.DEFAULTS), bucket, s3.endpoint(), ak, sk,
                true);
        }
        if (spec.url() == null || spec.user() == null || spec.password() == null) {
            throw new DponeException(BlockerCode.CONNECTION_CREDENTIAL_MISSING, spec.alias(),
                "s3 alias '" + spec.alias() + "' needs url, user (access key id) and a password source (secret key)");
        }
        Secret ak = Secret.of(spec.user());
        S3ObjectStore store = S3ObjectStore.connect(spec.url(), spec.option("region", S3ObjectStore.DEFAULT_REGION),
            spec.user(), spec.password().reveal(), bucket, S3ObjectStore.Tuning.DEFAULTS, timeouts(spec), List.of(),
            sdkRetries);
        return new StagingStore(store, bucket, spec.option("clickhouse_endpoint", spec.url()), ak, spec.password(),
            false);
    }

    /** {@code options.api_call_timeout} and {@code options.api_call_attempt_timeout}, else the defaults. */
    static S3ObjectStore.Timeouts timeouts(ConnectionSpec spec) {
        S3ObjectStore.Timeouts d = S3ObjectStore.Timeouts.DEFAULTS;
        return new S3ObjectStore.Timeouts(bound(spec, "api_call_timeout", d.apiCall()),
            bound(spec, "api_call_attempt_timeout", d.attempt()));
    }

    private static java.time.Duration bound(ConnectionSpec spec, String option, java.time.Duration fallback) {
        String text = spec.option(option, null);
        if (text == null) {
            return fallback;
        }
        return io.dpone.manifest.ShortDuration.parse(text.trim()).filter(x -> !x.isZero())
            .orElseThrow(() -> new DponeException(BlockerCode.CONNECTION_CONTEXT_INVALID, spec.alias(),
                "s3 connection '" + spec.alias() + "': options." + option + " must be a duration such as 30s or 5m"));
    }

    private static EmbeddedS3 embedded(Path dir) {
        synchronized (EMBEDDED) {
            return EMBEDDED.computeIfAbsent(dir.toAbsolutePath().normalize(), d -> {
                EmbeddedS3 s3 = EmbeddedS3.filesystem(d);
                Runtime.getRuntime().addShutdownHook(new Thread(s3::close, "dpone-embedded-s3-stop"));
                return s3;
            });
        }
    }

    /**
     * A staging store over any {@link ObjectStore} (an in-memory fake in the route's processor-level tests) that
     * ClickHouse reads as {@code bucket} under {@code clickHouseEndpoint}.
     */
    public static StagingStore of(ObjectStore store, String bucket, String clickHouseEndpoint, Secret accessKey,
                                  Secret secretKey) {
        return new StagingStore(store, bucket, clickHouseEndpoint, accessKey, secretKey, false);
    }

    public ObjectStore store() {
        return store;
    }

    /** Whether dpone runs this store itself (then it also provisions ClickHouse's read access to it). */
    public boolean embedded() {
        return embedded;
    }

    /** The path-style URL under which ClickHouse reads {@code key} (may contain a {@code *} glob). */
    public String clickHouseUrl(String key) {
        String base = clickHouseEndpoint.endsWith("/") ? clickHouseEndpoint : clickHouseEndpoint + "/";
        return base + bucket + "/" + key;
    }

    public Secret accessKey() {
        return accessKey;
    }

    public Secret secretKey() {
        return secretKey;
    }

    @Override
    public void close() {
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // closing a client cannot lose data: every write was acknowledged before it returned
            }
        }
    }
}
