package io.dpone.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.camel.DponeCamel;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.storage.EmbeddedS3;
import io.dpone.testing.FaultProxy;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault suite's object-storage leg (issue 35, docs/testing.md "The fault suite"): a {@link FaultProxy} between
 * dpone and S3Proxy, on the {@code object_storage_pull.chunked} route into the ClickHouse HTTP twin (the twin pulls
 * from S3Proxy directly: an {@code INSERT ... SELECT} pull is never retried). dpone's object puts, gets, listings and
 * deletes retry under the run's budget with the SDK's own retries off; the schedules are chained on one target and
 * checked with the suite's invariants: the run passes, or fails typed and leaves the previous generation, and its
 * resume with the faults off publishes exactly the source.
 */
@io.dpone.testing.ProcessTest
class ObjectStorageFaultSuiteTest {
    private static final String COLLECTION = "fault_stage";
    private static final String BUCKET = "dpone-fault";
    private static final int ROWS = 3_000;
    private static EmbeddedS3 s3;
    private static Path secretFile;

    @TempDir
    static Path home;

    @BeforeAll
    static void start() throws Exception {
        s3 = EmbeddedS3.inMemory();
        s3.createBucket(BUCKET);
        secretFile = Files.writeString(home.resolve("s3-secret"), s3.secretKey());
        try (ClickHouseEndpoint ch = TwinProcess.shared().endpoint()) {
            ch.execute("DROP NAMED COLLECTION IF EXISTS " + ClickHouseSql.id(COLLECTION));
            ch.execute("CREATE NAMED COLLECTION " + ClickHouseSql.id(COLLECTION) + " AS access_key_id = "
                + ClickHouseSql.literal(s3.accessKey()) + ", secret_access_key = "
                + ClickHouseSql.literal(s3.secretKey()));
        }
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.close();
        }
    }

    /** One schedule's outcome: passed, retries per kind, whether it failed typed and resumed exactly. */
    record Outcome(long seed, boolean passed, Map<String, Long> retries, List<String> codes, int faults,
                   boolean resumed, String violation) {
    }

    @Test
    void objectPutsAndGetsRetryUnderTheRunsBudgetAndAFailedRunResumesExactly() throws Exception {
        List<Outcome> retrying = chain(12, 0x35_5000L, 4, List.of(FaultProxy.Kind.RESET, FaultProxy.Kind.CLOSE,
            FaultProxy.Kind.STALL), 0.5);
        String tally = tally(retrying);
        System.err.println("object-storage fault suite, retrying:\n" + tally);
        assertEquals(0, retrying.stream().filter(o -> o.violation() != null).count(), tally);
        assertTrue(retrying.stream().anyMatch(o -> o.passed() && o.retries().keySet().stream()
            .anyMatch(k -> k.startsWith("object_"))), "a run passed through S3 faults with object retries counted: "
            + tally);

        List<Outcome> off = chain(0, 0x35_5100L, 2, List.of(FaultProxy.Kind.RESET), 1.0);
        String offTally = tally(off);
        System.err.println("object-storage fault suite, retries off:\n" + offTally);
        assertEquals(0, off.stream().filter(o -> o.violation() != null).count(), offTally);
        assertTrue(off.stream().allMatch(o -> !o.passed() && o.resumed()), "with retries off every faulted run fails "
            + "typed and resumes exactly: " + offTally);
        assertTrue(off.stream().allMatch(o -> o.retries().isEmpty()), offTally);
    }

    private List<Outcome> chain(int maxRetries, long seed0, int schedules, List<FaultProxy.Kind> kinds, double rate)
            throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("fault_s3");
        Path work = Files.createDirectories(home.resolve("chain-" + Long.toHexString(seed0)));
        TwinProcess twin = TwinProcess.shared();
        List<Outcome> out = new ArrayList<>();
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             DponeCamel camel = DponeCamel.start(null, false);
             ClickHouseEndpoint ch = twin.endpoint()) {
            DemoSalesGenerator.seed(src, ROWS, 13);
            BatchManifest m = manifest(work, db, maxRetries);
            RunReport base = new FullRefreshRunner(camel, context(h2, s3.endpoint()), work).run(m, "base",
                ProgressListener.NONE);
            assertTrue(base.passed(), () -> "the run without faults: " + base.blockers());
            String published = "base";
            for (int i = 0; i < schedules; i++) {
                long seed = seed0 + i;
                String id = "s" + Long.toString(seed, 36);
                try (FaultProxy proxy = FaultProxy.start("127.0.0.1", s3.port(), seed, kinds, rate, 32 * 1024L,
                        2_500, 1_500)) {
                    ConnectionContext faulty = context(h2, "http://127.0.0.1:" + proxy.port());
                    RunReport r = new FullRefreshRunner(camel, faulty, work).run(m, id, ProgressListener.NONE);
                    proxy.faults(false);
                    Map<String, Long> retries = r.retries() == null ? Map.of() : r.retries().byKind();
                    List<String> codes = FaultSchedules.codes(r);
                    FaultSchedules.Verdict v = FaultSchedules.verdict(r, () -> new FullRefreshRunner(camel, faulty,
                        work).run(m, id, ProgressListener.NONE), ch, db, ROWS, id, published);
                    String violation = v.violation();
                    boolean resumed = v.resumed();
                    out.add(new Outcome(seed, r.passed(), retries, codes, proxy.firedTotal(), resumed, violation));
                    if (violation != null) {
                        break;
                    }
                    published = id;
                }
            }
            assertEquals(List.of(), s3.store(BUCKET, io.dpone.storage.S3ObjectStore.Tuning.DEFAULTS).list("fault/"),
                "every run prefix is cleaned up");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
        return out;
    }

    private static String tally(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder();
        for (Outcome o : outcomes) {
            sb.append("seed ").append(Long.toHexString(o.seed())).append(": faults ").append(o.faults())
                .append(o.passed() ? ", passed" : ", failed " + o.codes() + (o.resumed() ? ", resumed exactly" : ""))
                .append(", retries ").append(o.retries())
                .append(o.violation() == null ? "" : ", VIOLATION " + o.violation()).append('\n');
        }
        return sb.toString();
    }

    /** The source, the twin and the s3 alias at {@code s3Url}; the twin reads the store directly. */
    private static ConnectionContext context(String h2, String s3Url) {
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, TestEngines.sourceEntry(h2),
            "clickhouse_server", TwinProcess.shared().alias("clickhouse_server"),
            "s3_stage", new ContextEntry("s3_stage", ConnectionType.S3, s3Url, s3.accessKey(), null,
                secretFile.toString(), false, Map.of("clickhouse_endpoint", s3.endpoint(),
                    "api_call_attempt_timeout", "1s", "api_call_timeout", "30s"))), false);
    }

    private static BatchManifest manifest(Path work, String db, int maxRetries) throws Exception {
        return ManifestLoader.load(Files.writeString(work.resolve("pull.batch.yaml"), """
            name: fault-pull
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: sales}
              options:
                fetch_size: 1000
                native_transfer:
                  snapshot:
                    columnar_fast_path:
                      chunk_rows: 600
                      object_storage:
                        uri_prefix: s3://%s/fault/{run_id}/
                        runtime_access: {connection_type: context, connection_id: s3_stage}
                        clickhouse_read_access: {mode: named_collection, named_collection: %s}
                        preflight: {require_runtime_write: true, require_clickhouse_read: true}
            sink:
              type: clickhouse
              connection_ref: clickhouse_server
              table: {schema: %s, name: sales}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options: {lineage: false, route: object_storage_pull.chunked, order_by: [sale_id]}
            retry:
              max_retries: %d
              max_time: 60s
              initial_backoff: 20ms
              max_backoff: 500ms
            """.formatted(TestEngines.SOURCE, BUCKET, COLLECTION, db, db, maxRetries)));
    }
}
