package io.dpone.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.manifest.ManifestLoader;
import io.dpone.camel.DponeCamel;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.LoadChunkProcessor;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.camel.Processor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While a serve job's run is in flight its figures move (rows read, chunks, the source's estimate, the route step),
 * read here from the job's JMX bean at the moment the second chunk loads; after the run they are back at zero.
 */
@io.dpone.testing.EngineTest
class ServeInFlightProgressTest {
    @TempDir
    Path dir;

    @Test
    void theJobShowsItsRunInFlightAndClearsItAfterwards() throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("inflight");
        AtomicReference<JobStats> stats = new AtomicReference<>();
        List<List<Object>> seen = new ArrayList<>();
        LoadChunkProcessor load = new LoadChunkProcessor();
        Processor observing = exchange -> {
            JobStats s = stats.get();
            seen.add(List.of(s.getInFlightRowsScanned(), s.getInFlightChunks(), s.getInFlightExpectedRows(),
                s.getInFlightPhase(), s.getRunningRunId()));
            load.process(exchange);
        };
        try (Connection source = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse();
             DponeCamel camel = DponeCamel.start(null, false, Map.of("loadChunk", observing))) {
            DemoSalesGenerator.seed(source, 3_000, 3);
            var manifest = ManifestLoader.load(Manifests.fullRefresh(dir, "sales", db, null)); // chunk_rows: 700
            ServeConfig.Job job = new ServeConfig.Job("sales", dir.resolve("m.yaml"), manifest,
                new ServeConfig.Schedule(Duration.ofHours(1), Duration.ZERO, null));
            Path state = dir.resolve("state");
            BatchJob batch = new BatchJob(job, new FullRefreshRunner(camel, TestEngines.context(h2), state),
                new JobState(state), new TargetLocks(), new ShutdownSignal(), TransferStats::new);
            stats.set(batch.stats());

            assertEquals("passed", batch.runOnce());

            assertEquals(5, seen.size(), "3,000 rows in chunks of 700");
            List<Object> second = seen.get(1);
            assertTrue((long) second.get(0) >= 1_400, "rows read by the time chunk 2 loads: " + second);
            assertEquals(1L, second.get(1), "one chunk done while the second loads");
            assertEquals(3_000L, second.get(2), "the source's estimate");
            assertEquals("load_chunk", second.get(3));
            assertTrue(((String) second.get(4)).startsWith("sales-"), second.toString());
            assertEquals(List.of(0L, 0L, 0L, ""), List.of(batch.stats().getInFlightRowsScanned(),
                batch.stats().getInFlightChunks(), batch.stats().getInFlightExpectedRows(),
                batch.stats().getInFlightPhase()), "nothing in flight after the run");
            assertEquals(3_000, batch.stats().getRowsMoved());
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
