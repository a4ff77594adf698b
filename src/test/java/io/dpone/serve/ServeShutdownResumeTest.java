package io.dpone.serve;

import static io.dpone.serve.ServeFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.route.LoadChunkProcessor;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.camel.Processor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SIGTERM path in-process: stop the serve while a load is in flight (a test hook holds the third chunk until
 * the stop is signalled). The chunk finishes, the run stops at the next boundary, the job's run id stays in the
 * state directory, a run-now during the load is skipped (not queued), and the next start resumes the same run id
 * and lands exactly the source rows.
 */
@io.dpone.testing.EngineTest
class ServeShutdownResumeTest {
    static final int ROWS = 8_000;

    @TempDir
    Path dir;

    @Test
    void stopMidLoadThenNextStartResumesTheSameRunIdWithoutDuplicates() throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("serve_stop");
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            DemoSalesGenerator.seed(src, ROWS, 9);
            Path manifest = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]");
            ServeConfig config = ServeConfigLoader.load(
                ServeFixture.config(dir, manifest, "{every: 1h, start_after: 100ms}", null));

            CountDownLatch midLoad = new CountDownLatch(1);
            AtomicReference<ServeRuntime> running = new AtomicReference<>();
            AtomicInteger calls = new AtomicInteger();
            LoadChunkProcessor real = new LoadChunkProcessor();
            Processor holdThirdChunk = exchange -> {
                if (calls.incrementAndGet() == 3) {
                    midLoad.countDown();
                    await(Duration.ofSeconds(30), "the stop signal", () -> running.get() != null && running.get().stopping());
                }
                real.process(exchange);
            };
            ServeRuntime first = ServeRuntime.start(config, TestEngines.context(h2), Map.of("loadChunk", holdThirdChunk));
            running.set(first);
            assertTrue(midLoad.await(60, TimeUnit.SECONDS), "the load never reached its third chunk");
            assertEquals("skipped_busy", first.job("sales").runOnce(), "an overlapping run is skipped, not queued");
            assertEquals(1, first.job("sales").stats().getSkippedOverlaps());
            long t0 = System.nanoTime();
            Thread watchdog = dumpThreadsAfter(Duration.ofSeconds(8));
            first.stop();
            watchdog.interrupt();
            long stopMillis = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(stopMillis < 20_000, "stop must be bounded, took " + stopMillis + " ms");
            assertEquals(3, calls.get(), "the chunk in flight finished and no further chunk was loaded");

            TransferStats stats = first.job("sales").stats();
            assertEquals("interrupted", stats.getLastStatus());
            assertEquals("serve.shutdown_interrupted", stats.getLastBlockerCodes());
            String runId = stats.getLastRunId();
            assertEquals(runId, new JobState(first.stateDir()).inFlight("sales").orElseThrow().runId(),
                "the interrupted run id is kept for the next start");
            assertEquals(List.of(List.of("0")), ch.query("SELECT count() FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db) + " AND name = 'sales'"), "nothing was published");

            try (ServeRuntime second = ServeRuntime.start(config, TestEngines.context(h2), Map.of())) {
                await(Duration.ofSeconds(60), "the resumed run", () -> second.job("sales").stats().getRuns() == 1);
                TransferStats resumed = second.job("sales").stats();
                assertEquals("passed", resumed.getLastStatus(), resumed::getLastBlockerCodes);
                assertEquals(runId, resumed.getLastRunId(), "the next start resumes with the same run id");
                assertTrue(new JobState(second.stateDir()).inFlight("sales").isEmpty());
                assertEquals(List.of(List.of(String.valueOf(ROWS), String.valueOf(ROWS), runId)),
                    ch.query("SELECT count(), uniqExact(sale_id), any(__dpone__run_id) FROM "
                        + ClickHouseSql.table(db, "sales")), "target row count equals the source, no duplicates");
            }
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    /** Prints every thread's stack if the stop takes longer than {@code after} (a diagnostic for a hung stop). */
    private static Thread dumpThreadsAfter(Duration after) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(after.toMillis()); // a diagnostic timer (interrupted when the stop ends), not a wait
            } catch (InterruptedException e) {
                return;
            }
            StringBuilder sb = new StringBuilder("stop still running after " + after + "; threads:\n");
            Thread.getAllStackTraces().forEach((th, stack) -> {
                sb.append(th.getName()).append(" ").append(th.getState()).append('\n');
                for (StackTraceElement e : stack) {
                    sb.append("    at ").append(e).append('\n');
                }
            });
            System.err.println(sb);
        }, "stop-watchdog");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
