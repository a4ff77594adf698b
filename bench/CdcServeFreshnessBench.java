import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.mssql.RateWriter;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.serve.ServeConfig;
import io.dpone.serve.ServeConfigLoader;
import io.dpone.serve.ServeRuntime;
import io.dpone.testing.TestEngines;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Benchmark, not a test: CDC freshness inside {@code dpone serve} itself (issue 30). One serve runtime in this JVM,
 * as a pod runs it, with one live SQL Server CDC stream (H2 emulation) on its schedule and {@code materialize}
 * configured, so the pod's own timer ticks and materializes. A writer commits inserts at a fixed rate (one
 * transaction every 10 ms); an observer polls the serving view ({@code SELECT max(order_id)}) every 50 ms, as a
 * reader would, and records when each change became visible there. Prints the p50/p99/max of (visible - committed),
 * the same for the last quarter of the run, the stream's tick and materialization counts from its MBean, and the
 * product's own {@code VisibleBehindSourceMs} at the end. Prints figures, asserts nothing.
 *
 * <p>Run through {@code bench/cdc-serve-freshness.sh [RATE=5000] [SECONDS=30] [EVERY=200ms] [MODE=incremental|rebuild]}.
 */
public final class CdcServeFreshnessBench {
    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        String every = args.length > 2 ? args[2] : "200ms";
        String mode = args.length > 3 ? args[3] : "incremental";
        Path work = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")).resolve("serve-freshness-"
            + ProcessHandle.current().pid()));
        String url = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("servefresh");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path config = Files.writeString(work.resolve("serve.yaml"), """
            http:
              port: %d
            state_dir: state
            cdc_streams:
              - name: orders
                mode: live
                schedule: {every: %s, start_after: 100ms}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: serve-freshness
                source_schema: dbo
                source_table: orders
                target_dataset: %s.orders_cdc
                unique_keys: [order_id]
                source_connection_id: cdc
                sink_connection_id: %s
                max_events: 100000
                materialize: {target_dataset: %s.orders, mode: %s}
            """.formatted(port, every, db, TestEngines.CLICKHOUSE, db, mode));
        Map<String, ContextEntry> aliases = new LinkedHashMap<>();
        aliases.put("cdc", new ContextEntry("cdc", ConnectionType.MSSQL, url, "sa", null, null, false, Map.of()));
        aliases.put(TestEngines.CLICKHOUSE, new ContextEntry(TestEngines.CLICKHOUSE, ConnectionType.CLICKHOUSE, null,
            null, null, null, true, Map.of("path", TestEngines.clickHousePath().toString())));
        ServeConfig serveConfig = ServeConfigLoader.load(config);
        MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
        ObjectName stream = new ObjectName("io.dpone:type=cdc,name=orders");
        System.out.printf("rate=%d/s seconds=%d schedule every %s, materialize %s%n", rate, seconds, every, mode);
        try (H2CdcFixture fx = new H2CdcFixture(url); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(db) + " ENGINE = Atomic");
            fx.txn().insert(H2CdcFixture.row(0, "seed", "0.00", null, null)).commit();
            int total = rate * seconds;
            long[] visibleAt = new long[total + 1];
            RateWriter rateWriter = new RateWriter(fx, rate, total);
            try (ServeRuntime serve = ServeRuntime.start(serveConfig, ConnectionContext.of(aliases, false), Map.of())) {
                // the first tick hands over and the first materialization builds the serving table
                long warm = System.nanoTime() + 120_000_000_000L;
                while (System.nanoTime() < warm && (Long) mbs.getAttribute(stream, "Materializations") < 1) {
                    Thread.sleep(50); // polling the MBean, a bench's wait
                }
                Thread writer = new Thread(rateWriter, "writer");
                long ticks0 = (Long) mbs.getAttribute(stream, "Ticks");
                long mat0 = (Long) mbs.getAttribute(stream, "Materializations");
                writer.start();
                int visible = 0;
                long end = System.nanoTime() + (seconds + 60) * 1_000_000_000L;
                String sql = "SELECT max(order_id) FROM " + ClickHouseSql.table(db, "orders");
                while (visible < total && System.nanoTime() < end) {
                    int max;
                    try {
                        max = Integer.parseInt(ch.query(sql).get(0).get(0));
                    } catch (RuntimeException e) { // the view is being replaced by a rebuild: poll again
                        max = visible;
                    }
                    long now = System.nanoTime();
                    for (int id = visible + 1; id <= Math.min(max, total); id++) {
                        visibleAt[id] = now;
                    }
                    visible = Math.max(visible, Math.min(max, total));
                    Thread.sleep(50); // the observer's polling interval
                }
                rateWriter.stop();
                writer.join();
                List<List<Long>> after = rateWriter.visibleAfterMs(visibleAt);
                List<Long> all = after.get(0);
                List<Long> lastQuarter = after.get(1);
                long ticks = (Long) mbs.getAttribute(stream, "Ticks") - ticks0;
                long mats = (Long) mbs.getAttribute(stream, "Materializations") - mat0;
                System.out.printf("written=%d visible=%d ticks=%d (failed %d) materializations=%d (failed %d) "
                        + "last tick %d ms, last materialization %d ms, VisibleBehindSourceMs at the end %d%n"
                        + "  visible_after_ms p50=%d p99=%d max=%d | last quarter p50=%d p99=%d%n",
                    rateWriter.written(), visible, ticks, (Long) mbs.getAttribute(stream, "FailedTicks"), mats,
                    (Long) mbs.getAttribute(stream, "FailedMaterializations"),
                    (Long) mbs.getAttribute(stream, "LastDurationMs"),
                    (Long) mbs.getAttribute(stream, "LastMaterializeMs"),
                    (Long) mbs.getAttribute(stream, "VisibleBehindSourceMs"), RateWriter.pct(all, 50), RateWriter.pct(all, 99),
                    RateWriter.pct(all, 100), RateWriter.pct(lastQuarter, 50), RateWriter.pct(lastQuarter, 99));
            }
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
