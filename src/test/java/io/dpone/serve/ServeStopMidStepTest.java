package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.ManifestLoader;
import io.dpone.camel.DponeCamel;
import io.dpone.route.FullRefreshRunner;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.camel.Processor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop that cuts a step short (here the gates, as a stopping context would, with an untyped failure) ends the
 * run as {@code serve.shutdown_interrupted}, not as a failed run or an internal error, and the job keeps its run id
 * for the next start; the target is untouched.
 */
@io.dpone.testing.EngineTest
class ServeStopMidStepTest {
    @TempDir
    Path dir;

    @Test
    void aRunCutShortByTheStopIsInterruptedNotFailed() throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("stopmid");
        ShutdownSignal signal = new ShutdownSignal();
        Processor stoppingGates = exchange -> {
            signal.stop();
            throw new IllegalStateException("the Camel context is shutting down");
        };
        try (Connection source = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse();
             DponeCamel camel = DponeCamel.start(null, false, Map.of("qualityGates", stoppingGates))) {
            DemoSalesGenerator.seed(source, 1_000, 9);
            var manifest = ManifestLoader.load(Manifests.fullRefresh(dir, "sales", db, null));
            ServeConfig.Job job = new ServeConfig.Job("sales", dir.resolve("m.yaml"), manifest,
                new ServeConfig.Schedule(Duration.ofHours(1), Duration.ZERO, null));
            Path state = dir.resolve("state");
            JobState jobs = new JobState(state);
            AtomicReference<TransferStats> route = new AtomicReference<>();
            BatchJob batch = new BatchJob(job, new FullRefreshRunner(camel, TestEngines.context(h2), state), jobs,
                new TargetLocks(), signal, id -> {
                    route.set(new TransferStats(id));
                    return route.get();
                });

            assertEquals("interrupted", batch.runOnce());

            assertEquals("serve.shutdown_interrupted", batch.stats().getLastBlockerCodes());
            assertEquals("interrupted", route.get().getLastStatus());
            assertEquals(0, batch.stats().getFailedRuns(), "a run the stop cut short is not a failed run");
            assertTrue(jobs.inFlight("sales").isPresent(), "the run id is kept for the next start");
            assertEquals(batch.stats().getLastRunId(), jobs.inFlight("sales").get().runId());
            assertTrue(ch.query("SELECT count() FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
                + " AND name = 'sales'").get(0).get(0).equals("0"), "the target is untouched");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
