package io.dpone.route;

import io.dpone.camel.DponeCamel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.BatchManifest;
import io.dpone.manifest.ManifestLoader;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.camel.Processor;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kills a run at every step boundary (the failure step is disabled, as when the process dies), then resumes with
 * the same run id. Invariants: before publication the target still holds the previous generation untouched; after
 * the resume it holds exactly the new generation, once, and nothing of the run is left behind.
 */
@io.dpone.testing.EngineTest
class CrashResumeTest {
    static final int ROWS = 2_500;
    static final int NEW_ROWS = 2_000;

    @TempDir
    Path dir;

    static Stream<Arguments> crashPoints() {
        return Stream.of(
            Arguments.of("openEngine", true, 1), Arguments.of("detectResume", false, 1),
            Arguments.of("openSource", false, 1), Arguments.of("prepareSink", true, 1),
            Arguments.of("prepareSink", false, 1), Arguments.of("startEncoder", false, 1),
            Arguments.of("createStaging", false, 1), Arguments.of("stagingStats", false, 1),
            Arguments.of("loadChunk", true, 1), Arguments.of("loadChunk", false, 2),
            Arguments.of("qualityGates", true, 1), Arguments.of("qualityGates", false, 1),
            Arguments.of("publish", true, 1), Arguments.of("publish", false, 1),
            Arguments.of("dropPredecessor", true, 1), Arguments.of("dropPredecessor", false, 1),
            Arguments.of("cleanupAudit", true, 1));
    }

    @ParameterizedTest(name = "crash at {0} (before: {1}, call {2})")
    @MethodSource("crashPoints")
    void resumeWithTheSameRunIdConverges(String step, boolean before, int nthCall) throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("crash");
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            DemoSalesGenerator.seed(src, ROWS, 11);
            ConnectionContext ctx = TestEngines.context(h2);
            BatchManifest manifest = ManifestLoader.load(Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]"));
            assertTrue(runOnce(manifest, "gen-0", ctx, Map.of()).passed());
            try (Statement st = src.createStatement()) {
                st.execute("DELETE FROM dbo.sales WHERE sale_id > " + NEW_ROWS);
            }

            RunReport crashed = runOnce(manifest, "gen-1", ctx, Map.of(
                "failedRun", (Processor) exchange -> { },
                step, new CrashingStep(lookupShipped(step), before, nthCall)));
            assertFalse(crashed.passed());
            boolean swapped = step.equals("dropPredecessor") || step.equals("cleanupAudit")
                || (step.equals("publish") && !before);
            if (!swapped) {
                assertEquals(List.of(List.of(String.valueOf(ROWS), "1")), ch.query("SELECT count(), uniqExact("
                    + "__dpone__run_id) FROM " + ClickHouseSql.table(db, "sales") + " WHERE __dpone__run_id = 'gen-0'"),
                    "the previous generation must be untouched before publication");
            }

            RunReport resumed = runOnce(manifest, "gen-1", ctx, Map.of());
            assertTrue(resumed.passed(), () -> resumed.blockers().toString());
            assertEquals(swapped, resumed.resumedAfterPublish());
            assertEquals(List.of(List.of(String.valueOf(NEW_ROWS), String.valueOf(NEW_ROWS), "gen-1")),
                ch.query("SELECT count(), uniqExact(sale_id), any(__dpone__run_id) FROM "
                    + ClickHouseSql.table(db, "sales") + " WHERE __dpone__run_id = 'gen-1'"));
            assertEquals(List.of(List.of(String.valueOf(NEW_ROWS))),
                ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "sales")));
            assertEquals(List.of(List.of("sales")), ch.query("SELECT name FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db)), "only the target may remain");
            assertTrue(resumed.gates().stream().noneMatch(g -> g.isFailed()));
            assertFalse(java.nio.file.Files.exists(dir.resolve("state/spool").resolve(TransferRun.keyOf("gen-1"))),
                "no spooled chunk may remain");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    private RunReport runOnce(BatchManifest m, String runId, ConnectionContext ctx, Map<String, Object> overrides) {
        try (DponeCamel camel = DponeCamel.start(null, false, overrides)) {
            return new FullRefreshRunner(camel, ctx, dir.resolve("state")).run(m, runId, ProgressListener.NONE);
        }
    }

    private static Processor lookupShipped(String step) {
        return switch (step) {
            case "openEngine" -> new OpenEngineProcessor();
            case "detectResume" -> new DetectResumeProcessor();
            case "openSource" -> new OpenSourceProcessor();
            case "prepareSink" -> new PrepareSinkProcessor();
            case "startEncoder" -> new StartEncoderProcessor();
            case "createStaging" -> new CreateStagingProcessor();
            case "stagingStats" -> new StagingStatsProcessor();
            case "loadChunk" -> new LoadChunkProcessor();
            case "qualityGates" -> new QualityGateProcessor();
            case "publish" -> new PublishProcessor();
            case "dropPredecessor" -> new DropPredecessorProcessor();
            case "cleanupAudit" -> new CleanupAuditProcessor();
            default -> throw new IllegalArgumentException(step);
        };
    }

    /** Runs the real step, but dies before or after its n-th call. */
    private static final class CrashingStep implements Processor {
        private final Processor delegate;
        private final boolean before;
        private final int nth;
        private final AtomicInteger calls = new AtomicInteger();

        CrashingStep(Processor delegate, boolean before, int nth) {
            this.delegate = delegate;
            this.before = before;
            this.nth = nth;
        }

        @Override
        public void process(org.apache.camel.Exchange exchange) throws Exception {
            boolean crash = calls.incrementAndGet() == nth;
            if (crash && before) {
                throw new IllegalStateException("simulated crash");
            }
            delegate.process(exchange);
            if (crash) {
                throw new IllegalStateException("simulated crash");
            }
        }
    }
}
