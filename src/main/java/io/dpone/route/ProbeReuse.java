package io.dpone.route;

import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the object-storage capability probes established, reused within one process (serve, certification, the Java
 * API): when every probe of a run passed (or was skipped by configuration), a later run against the same ClickHouse
 * connection, the same store endpoint, bucket and writer credential, the same read access and table function, and
 * the same spool, within {@link #FRESH}, records those probes as passed again, with a message naming the run that
 * probed and how long ago, instead of putting, reading and deleting another sentinel. Only successes are kept: a
 * failed probe runs again every time, and a failed run forgets its key ({@link #forget}), so the next run probes.
 * The s3Cluster pull is always probed.
 */
final class ProbeReuse {
    /** How long a passed probe set is reused. */
    static final Duration FRESH = Duration.ofMinutes(10);

    /** The probes that passed, under the run that probed. */
    record Passed(String runId, Instant at, List<ProbeResult> probes) {
    }

    private static final Map<String, Passed> PASSED = new ConcurrentHashMap<>();

    private ProbeReuse() {
    }

    /**
     * The identity of everything the probes depend on; secrets enter only as a SHA-256, and the key is never
     * printed. Null when the run's connections cannot be told apart (no reuse then).
     */
    static String key(TransferRun run, ObjectStaging staging) {
        if (!"s3".equals(staging.pullFunction())) {
            return null;
        }
        ConnectionSpec ch = run.plan().context().resolve(run.plan().manifest().sink().connectionRef(),
            ConnectionType.CLICKHOUSE, "sink.connection_ref");
        Map<String, String> k = new TreeMap<>();
        k.put("clickhouse", ch.type() + "|" + ch.alias() + "|" + ch.url() + "|" + ch.user() + "|"
            + hash(ch.password()) + "|" + ch.embedded() + "|" + new TreeMap<>(ch.options()));
        k.put("store", staging.store().clickHouseUrl("") + "|" + hash(staging.store().accessKey()) + "|"
            + hash(staging.store().secretKey()) + "|" + staging.store().store());
        var c = staging.config();
        k.put("read", c.readMode() + "|" + c.namedCollection() + "|" + c.requireRuntimeWrite() + "|"
            + c.requireClickhouseRead() + "|" + staging.pullFunction());
        k.put("spool", run.plan().workDir().toAbsolutePath().normalize().toString());
        return hash(k.toString());
    }

    /** The passed probes of {@code key} when they are fresh. */
    static Optional<Passed> find(String key) {
        if (key == null) {
            return Optional.empty();
        }
        Passed p = PASSED.get(key);
        if (p == null || p.at().plus(FRESH).isBefore(Instant.now())) {
            return Optional.empty();
        }
        return Optional.of(p);
    }

    static void remember(String key, String runId, List<ProbeResult> probes) {
        if (key != null) {
            PASSED.put(key, new Passed(runId, Instant.now(), List.copyOf(probes)));
        }
    }

    /** A run with this key failed: its next run probes again. */
    static void forget(String key) {
        if (key != null) {
            PASSED.remove(key);
        }
    }

    /** Forgets everything (tests). */
    static void clear() {
        PASSED.clear();
    }

    /** {@code p} as recorded for {@code routeId} now: a passed probe says it was reused, and from which run. */
    static ProbeResult replay(ProbeResult p, String routeId, Passed from) {
        if (!"passed".equals(p.status())) {
            return new ProbeResult(p.schema(), routeId, p.probe(), p.code(), p.status(), 0, p.message());
        }
        long ago = Math.max(0, Duration.between(from.at(), Instant.now()).toSeconds());
        return new ProbeResult(p.schema(), routeId, p.probe(), p.code(), "passed", 0, "reused: passed for run "
            + from.runId() + " " + ago + " s ago in this process, against the same ClickHouse connection, store, "
            + "bucket, writer credential and read access");
    }

    private static String hash(Secret s) {
        return s == null ? "-" : hash(s.reveal());
    }

    private static String hash(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                String.valueOf(s).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
