import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import io.dpone.camel.DponeCamel;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * Benchmark, not a test: live SQL Server CDC ticks from the H2 emulation ({@code H2CdcFixture}: {@code cdc.dbo_orders_CT},
 * {@code sys.fn_cdc_*}) into the embedded ClickHouse CDC log, commit-after-durable included (offset table), then the
 * {@code --tail-events} later changes ticked into the log grown to {@code --materialize-rows} rows (the held-event
 * lookup against a large log), then the materialization of that log. Prints figures, asserts nothing.
 *
 * <p>Run from the project root after {@code ./mvnw -q -B test-compile} and
 * {@code ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile=target/cp.txt}:
 * {@code java -Xmx2g -cp "target/classes:target/test-classes:$(cat target/cp.txt)" bench/CdcLiveBench.java
 * [--events 200000] [--batch 100000] [--per-txn 1000] [--materialize-rows 1000000] [--tail-events 100000]}.
 */
public final class CdcLiveBench {
    public static void main(String[] args) throws Exception {
        int events = 200_000;
        int batch = 100_000;
        int perTxn = 1000;
        long materializeRows = 1_000_000;
        int tailEvents = 100_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--events" -> events = Integer.parseInt(args[++i]);
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                case "--per-txn" -> perTxn = Integer.parseInt(args[++i]);
                case "--materialize-rows" -> materializeRows = Long.parseLong(args[++i]);
                case "--tail-events" -> tailEvents = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: CdcLiveBench [--events N] [--batch N] [--per-txn N] "
                        + "[--materialize-rows N] [--tail-events N]");
                    System.exit(2);
                }
            }
        }
        Path work = Files.createDirectories(Path.of("bench/.work/cdc"));
        Path chPath = work.resolve("chdb-" + ProcessHandle.current().pid());
        String h2 = "jdbc:h2:mem:cdcbench;DB_CLOSE_DELAY=-1;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;"
            + "CASE_INSENSITIVE_IDENTIFIERS=TRUE;LAZY_QUERY_EXECUTION=1";
        try (H2CdcFixture fx = new H2CdcFixture(h2);
             ClickHouseEndpoint ch = EmbeddedClickHouseEndpoint.open(chPath)) {
            long t0 = System.nanoTime();
            seed(fx, events, perTxn, 0);
            double seedS = (System.nanoTime() - t0) / 1e9;
            System.out.printf("seed events=%d per_txn=%d seconds=%.2f%n", events, perTxn, seedS);
            String db = "cdc_bench_" + ProcessHandle.current().pid();
            CdcRunOptions o = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse").backend("mssql_cdc")
                .pipelineName("orders-bench").sourceTable("dbo", "orders").targetDataset(db + ".orders_cdc")
                .uniqueKeys(List.of("order_id")).connections("bench", "bench").maxEvents(batch).build();
            try (DponeCamel camel = DponeCamel.start(null, false)) {
                if (!ticks(camel, o, fx, ch, work, "")) {
                    return;
                }
            }
            String log = ClickHouseSql.table(db, "orders_cdc");
            long have = Long.parseLong(ch.query("SELECT count() FROM " + log).get(0).get(0));
            // grow the log with later versions of the same keys (same key hashes, new event ids and versions). The
            // originals are picked in a subquery: with `SELECT * REPLACE (... AS dpone_cdc_event_id)` a WHERE on
            // dpone_cdc_event_id sees the REPLACED value (which always contains '-'), so the filter matched nothing
            // and the log silently stayed at its tick size
            long g0 = System.nanoTime();
            for (int round = 1; have < materializeRows; round++) {
                long add = Math.min(events, materializeRows - have);
                ch.execute("INSERT INTO " + log + " SELECT * REPLACE (dpone_cdc_version + toUInt256(" + round
                    + ") * pow(2, 120)::UInt256 AS dpone_cdc_version, concat(dpone_cdc_event_id, '-" + round
                    + "') AS dpone_cdc_event_id) FROM (SELECT * FROM " + log
                    + " WHERE position(dpone_cdc_event_id, '-') = 0 LIMIT " + add + ")");
                long now = Long.parseLong(ch.query("SELECT count() FROM " + log).get(0).get(0));
                if (now <= have) {
                    System.out.println("log growth added no rows; materializing " + have + " rows");
                    break;
                }
                have = now;
            }
            System.out.printf("log grown rows=%d seconds=%.2f%n", have, (System.nanoTime() - g0) / 1e9);
            if (tailEvents > 0) {
                // later changes ticked into the grown log: the held-event lookup now runs against a large log
                seed(fx, tailEvents, perTxn, events);
                try (DponeCamel camel = DponeCamel.start(null, false)) {
                    if (!ticks(camel, o, fx, ch, work, "large_log_")) {
                        return;
                    }
                }
                have = Long.parseLong(ch.query("SELECT count() FROM " + log).get(0).get(0));
            }
            long m0 = System.nanoTime();
            Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
                db + ".orders_current", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted), null);
            double mS = (System.nanoTime() - m0) / 1e9;
            System.out.printf("materialize rows_in=%s keys_out=%s passed=%s seconds=%.2f rows_per_s=%.0f%n",
                m.get("rows_in"), m.get("keys_out"), m.get("passed"), mS, have / mS);
        } finally {
            try (var paths = Files.walk(chPath)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Ticks until an idle tick; false if a tick was blocked. */
    static boolean ticks(DponeCamel camel, CdcRunOptions o, H2CdcFixture fx, ClickHouseEndpoint ch, Path work,
                         String label) {
        long read = 0;
        long all0 = System.nanoTime();
        com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        for (int tick = 1; ; tick++) {
            long startedMs = System.currentTimeMillis();
            long cpu0 = os.getProcessCpuTime();
            Map<String, Long> threads0 = threadCpuMillis();
            long s = System.nanoTime();
            CdcRuntimeRunReport r = CdcTickRunner.run(camel, LiveCdcRuntime.tick(o, CdcRuntime.newRunId(),
                fx.connection, ch, work.resolve("spool")));
            double sec = (System.nanoTime() - s) / 1e9;
            // CPU of the whole process (JIT compiler and GC threads included): steadier than wall time on a shared
            // machine, and the part of a first tick that warm-up adds
            double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
            Map<String, Long> threads1 = threadCpuMillis();
            Map<String, Long> split = new java.util.LinkedHashMap<>();
            long named = 0;
            for (String k : List.of("main", "jit", "gc")) {
                long v = threads1.getOrDefault(k, 0L) - threads0.getOrDefault(k, 0L);
                split.put(k, v);
                named += v;
            }
            split.put("other", Math.round(cpu * 1000) - named); // the engine's native threads, H2, JFR, ...
            if (!r.passed()) {
                System.out.println("tick blocked: " + r.blockers());
                return false;
            }
            if (r.counts().read() == 0) {
                System.out.printf("%stick=%d idle seconds=%.3f committed=%s%n", label, tick, sec, r.committed());
                break;
            }
            read += r.counts().read();
            System.out.printf("%stick=%d events=%d seconds=%.2f events_per_s=%.0f process_cpu_s=%.2f "
                    + "events_per_cpu_s=%.0f cpu_ms=%s started_ms=%d steps_ms=%s%n", label, tick, r.counts().read(),
                sec, r.counts().read() / sec, cpu, r.counts().read() / cpu, split, startedMs,
                r.metrics().stepMillis());
        }
        double allS = (System.nanoTime() - all0) / 1e9;
        System.out.printf("%sticks_total events=%d seconds=%.2f events_per_s=%.0f%n", label, read, allS, read / allS);
        return true;
    }

    /**
     * CPU milliseconds of this process's threads so far by group, from {@code /proc/self/task/<tid>/stat} (Linux; empty
     * elsewhere): {@code main} (the tick runs on it), {@code jit} (C1/C2 compiler threads), {@code gc} (GC workers
     * and the VM thread). Clock-tick resolution (10 ms); a thread that ended between two reads drops out.
     */
    static Map<String, Long> threadCpuMillis() {
        Map<String, Long> out = new java.util.HashMap<>();
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return out;
        }
        try (var dirs = Files.list(tasks)) {
            for (Path t : dirs.toList()) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (java.io.IOException e) {
                    continue; // ended meanwhile
                }
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
                String group = comm.equals("java") || comm.equals("main") ? "main"
                    : comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler") ? "jit"
                    : comm.startsWith("GC Thread") || comm.equals("VM Thread") ? "gc" : "other";
                out.merge(group, ticks * 10, Long::sum);
            }
        } catch (java.io.IOException e) {
            return out;
        }
        return out;
    }

    /** {@code events} change rows: inserts then updates (before/after) of 3-column orders, {@code perTxn} per LSN. */
    static void seed(H2CdcFixture fx, int events, int perTxn, int before) throws Exception {
        fx.connection.setAutoCommit(false);
        try (PreparedStatement ct = fx.connection.prepareStatement("INSERT INTO cdc.[dbo_orders_CT] ([__$start_lsn], "
            + "[__$seqval], [__$operation], [__$update_mask], order_id, status, amount, note, updated_at, "
            + "[__$command_id]) VALUES (?, ?, ?, X'1F', ?, ?, ?, NULL, ?, ?)");
             PreparedStatement map = fx.connection.prepareStatement("INSERT INTO cdc.lsn_time_mapping (start_lsn) VALUES (?)")) {
            // LSNs and seqvals continue after the `before` change rows seeded earlier
            long txn = 0x1000 + (before + perTxn - 1) / perTxn;
            LocalDateTime ts = LocalDateTime.parse("2024-01-01T00:00:00.1234567");
            for (int i = 0; i < events; i++) {
                if (i % perTxn == 0) {
                    map.setBytes(1, H2CdcFixture.lsn(++txn));
                    map.addBatch();
                }
                int op = i < events / 2 ? 2 : (i % 2 == 0 ? 3 : 4);
                int id = i < events / 2 ? i : (i - events / 2) / 2;
                ct.setBytes(1, H2CdcFixture.lsn(txn));
                ct.setBytes(2, H2CdcFixture.lsn(before + i + 1L));
                ct.setInt(3, op);
                ct.setInt(4, id);
                ct.setString(5, op == 4 ? "paid" : "new");
                ct.setBigDecimal(6, BigDecimal.valueOf(id % 100_000, 2));
                ct.setObject(7, ts.plusSeconds(id));
                ct.setInt(8, op == 4 ? (i - 1) % perTxn + 1 : i % perTxn + 1);
                ct.addBatch();
                if (i % 10_000 == 9_999) {
                    ct.executeBatch();
                }
            }
            ct.executeBatch();
            map.executeBatch();
        }
        fx.connection.commit();
        fx.connection.setAutoCommit(true);
    }
}
