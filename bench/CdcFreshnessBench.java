import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.mssql.RateWriter;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.camel.DponeCamel;
import io.dpone.testing.TestEngines;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Benchmark, not a test: CDC freshness end to end on this machine. A writer commits inserts into the H2 SQL Server
 * CDC emulation at a fixed rate (one transaction every 10 ms); a loop does what a pod's live stream does (a live
 * tick through the camel context, exactly the call {@code dpone serve} makes) and then materializes the typed
 * serving table. For every change it records when it became visible in the serving table, and prints per rate the
 * p50/p99/max of (visible - committed), the same for the last quarter of the run (lag bounded when it does not
 * grow), ticks, and the materialization time. Prints figures, asserts nothing.
 *
 * <p>Run through {@code bench/cdc-freshness.sh [RATES=50,200,1000] [SECONDS=20] [MODE=rebuild|incremental]}.
 */
public final class CdcFreshnessBench {
    /** {@code rebuild} (default) or {@code incremental} (issue 30): the third argument. */
    static CdcMaterializer.Mode MODE = CdcMaterializer.Mode.rebuild;

    public static void main(String[] args) throws Exception {
        int[] rates = Arrays.stream((args.length > 0 ? args[0] : "50,200,1000").split(",")).mapToInt(Integer::parseInt)
            .toArray();
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        MODE = args.length > 2 ? CdcMaterializer.Mode.valueOf(args[2]) : CdcMaterializer.Mode.rebuild;
        System.out.println("materialize mode " + MODE);
        try (ClickHouseEndpoint ch = TestEngines.clickhouse(); DponeCamel camel = DponeCamel.start(null, false)) {
            for (int rate : rates) {
                run(ch, camel, rate, seconds);
            }
        }
    }

    static void run(ClickHouseEndpoint ch, DponeCamel camel, int rate, int seconds) throws Exception {
        String url = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("freshness");
        try (H2CdcFixture fx = new H2CdcFixture(url);
             Connection reader = java.sql.DriverManager.getConnection(url, "sa", "")) {
            fx.txn().insert(H2CdcFixture.row(0, "seed", "0.00", null, null)).commit();
            int total = rate * seconds;
            long[] visibleAt = new long[total + 1];
            RateWriter rateWriter = new RateWriter(fx, rate, total);
            Thread writer = new Thread(rateWriter, "writer");
            CdcRunOptions o = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend("mssql_cdc")
                .pipelineName("fresh").sourceTable("dbo", "orders").targetDataset(db + ".orders_cdc")
                .uniqueKeys(List.of("order_id")).connections(TestEngines.SOURCE, TestEngines.CLICKHOUSE)
                .maxEvents(100_000).build();
            long ticks = 0;
            long tickNanos = 0;
            long materializeNanos = 0;
            int visible = 0;
            writer.start();
            long end = System.nanoTime() + (seconds + 30) * 1_000_000_000L;
            while (visible < total && System.nanoTime() < end) {
                long t0 = System.nanoTime();
                CdcRuntimeRunReport r = live(camel, o, ch, reader);
                long t1 = System.nanoTime();
                ticks++;
                tickNanos += t1 - t0;
                if (!r.passed()) {
                    System.out.println("tick blocked: " + r.blockers());
                    break;
                }
                if (r.counts().applied() > 0) {
                    new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc", db
                        + ".orders", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted, MODE, null),
                        null);
                    long t2 = System.nanoTime();
                    materializeNanos += t2 - t1;
                    int max = Integer.parseInt(ch.query("SELECT max(order_id) FROM " + ClickHouseSql.table(db,
                        "orders")).get(0).get(0));
                    for (int id = visible + 1; id <= Math.min(max, total); id++) {
                        visibleAt[id] = t2;
                    }
                    visible = Math.max(visible, Math.min(max, total));
                } else {
                    Thread.sleep(20); // idle: a pod's schedule would wait too
                }
            }
            rateWriter.stop();
            writer.join();
            List<List<Long>> after = rateWriter.visibleAfterMs(visibleAt);
            List<Long> all = after.get(0);
            List<Long> lastQuarter = after.get(1);
            System.out.printf("rate=%d/s seconds=%d written=%d visible=%d ticks=%d tick_ms_avg=%.0f "
                    + "materialize_ms_avg=%.0f%n  visible_after_ms p50=%d p99=%d max=%d | last quarter p50=%d p99=%d%n",
                rate, seconds, rateWriter.written(), visible, ticks, tickNanos / 1e6 / Math.max(1, ticks),
                materializeNanos / 1e6 / Math.max(1, ticks), RateWriter.pct(all, 50), RateWriter.pct(all, 99), RateWriter.pct(all, 100),
                RateWriter.pct(lastQuarter, 50), RateWriter.pct(lastQuarter, 99));
        }
    }

    /** The live tick with an open reader connection, run through the pod's camel context. */
    static CdcRuntimeRunReport live(DponeCamel camel, CdcRunOptions o, ClickHouseEndpoint ch, Connection reader) {
        return CdcTickRunner.run(camel, io.dpone.cdc.runtime.LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), reader,
            ch, java.nio.file.Path.of("bench/.work/freshness-spool")));
    }
}
