import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.mssql.H2CdcFixture;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

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
            long[] committedAt = new long[total + 1];
            long[] visibleAt = new long[total + 1];
            AtomicInteger written = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                long start = System.nanoTime();
                int n = 0;
                try {
                    for (int slot = 1; n < total && !stop.get(); slot++) {
                        int due = (int) Math.min(total, (long) rate * slot / 100);
                        if (due > n) {
                            H2CdcFixture.Txn txn = fx.txn();
                            for (int id = n + 1; id <= due; id++) {
                                txn.insert(H2CdcFixture.row(id, "new", id + ".00", "w" + id, null));
                            }
                            txn.commit();
                            long now = System.nanoTime();
                            for (int id = n + 1; id <= due; id++) {
                                committedAt[id] = now;
                            }
                            n = due;
                            written.set(n);
                        }
                        long wake = start + slot * 10_000_000L;
                        long sleep = wake - System.nanoTime();
                        if (sleep > 0) {
                            Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                        }
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                }
            }, "writer");
            CdcRunOptions o = new CdcRunOptions(CdcMode.live, "mssql", "clickhouse", "mssql_cdc", "fresh", "dbo",
                "orders", db + ".orders_cdc", List.of("order_id"), null, null, null, TestEngines.SOURCE,
                TestEngines.CLICKHOUSE, null, null, 100_000);
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
            stop.set(true);
            writer.join();
            List<Long> all = new ArrayList<>();
            List<Long> lastQuarter = new ArrayList<>();
            for (int id = 1; id <= total; id++) {
                if (visibleAt[id] > 0 && committedAt[id] > 0) {
                    long ms = (visibleAt[id] - committedAt[id]) / 1_000_000;
                    all.add(ms);
                    if (id > total * 3 / 4) {
                        lastQuarter.add(ms);
                    }
                }
            }
            System.out.printf("rate=%d/s seconds=%d written=%d visible=%d ticks=%d tick_ms_avg=%.0f "
                    + "materialize_ms_avg=%.0f%n  visible_after_ms p50=%d p99=%d max=%d | last quarter p50=%d p99=%d%n",
                rate, seconds, written.get(), visible, ticks, tickNanos / 1e6 / Math.max(1, ticks),
                materializeNanos / 1e6 / Math.max(1, ticks), pct(all, 50), pct(all, 99), pct(all, 100),
                pct(lastQuarter, 50), pct(lastQuarter, 99));
        }
    }

    /** The live tick with an open reader connection, run through the pod's camel context. */
    static CdcRuntimeRunReport live(DponeCamel camel, CdcRunOptions o, ClickHouseEndpoint ch, Connection reader) {
        return CdcTickRunner.run(camel, io.dpone.cdc.runtime.LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), reader,
            ch, java.nio.file.Path.of("bench/.work/freshness-spool")));
    }

    static long pct(List<Long> values, int p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int i = (int) Math.min(sorted.size() - 1, Math.max(0, Math.ceil(p / 100.0 * sorted.size()) - 1));
        return sorted.get(i);
    }
}
