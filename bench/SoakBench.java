import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.clickhouse.ClickHouseEndpoint;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.management.ObjectName;

/**
 * Benchmark, not a test: a soak of {@code dpone serve} (issue 35). One serve runtime, in this JVM as a pod runs it,
 * with three live SQL Server CDC streams (H2 emulation) fed by writers at steady rates (inserts, then updates and
 * deletes over a bounded key space; the capture job's cleanup emulated every minute), each materialized
 * incrementally after its ticks, a full refresh every minute and a certification (three streaming routes, one
 * repetition) every ten minutes. Every {@code SAMPLE} seconds it samples the process's RSS, heap after a GC, live
 * threads, open file descriptors, the engine's active parts, disk under the engine and serve's state, and
 * leftover staging tables. At the end it prints each series' slope per hour and compares the mean of the last third
 * of the run with the middle third: growth beyond the noise bounds below fails the soak (exit 1). Disk is reported,
 * not judged: the CDC logs and the evidence files grow by design.
 *
 * <p>Run through {@code bench/soak.sh [MINUTES=30] [SAMPLE_SECONDS=30]}.
 */
public final class SoakBench {
    private static final int[] RATES = {20, 50, 100};
    private static final int KEYS = 2000;
    /** Growth of the last third's mean over the middle third's that fails the soak, per series. */
    private static final Map<String, double[]> BOUNDS = Map.of(
        // {relative, absolute}: fails when growth exceeds both
        "rss_mb", new double[] {0.15, 64}, "heap_after_gc_mb", new double[] {0.25, 16}, "threads", new double[] {0.10, 3},
        "fds", new double[] {0.10, 10}, "parts", new double[] {0.50, 50}, "leftovers", new double[] {0, 1});

    public static void main(String[] args) throws Exception {
        double minutes = args.length > 0 ? Double.parseDouble(args[0]) : 30;
        int sampleSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Path work = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")).resolve("soak-"
            + ProcessHandle.current().pid()));
        String db = TestEngines.newDatabase("soak");
        String salesUrl = TestEngines.newH2Url();
        seedSales(salesUrl, 20_000);
        List<H2CdcFixture> sources = new ArrayList<>();
        Map<String, ContextEntry> aliases = new LinkedHashMap<>();
        aliases.put(TestEngines.SOURCE, TestEngines.sourceEntry(salesUrl));
        aliases.put(TestEngines.CLICKHOUSE, new ContextEntry(TestEngines.CLICKHOUSE, ConnectionType.CLICKHOUSE, null,
            null, null, null, true, Map.of("path", TestEngines.clickHousePath().toString())));
        StringBuilder streams = new StringBuilder("cdc_streams:\n");
        for (int i = 0; i < RATES.length; i++) {
            String url = TestEngines.newH2Url();
            sources.add(new H2CdcFixture(url));
            String alias = "cdc_" + i;
            aliases.put(alias, new ContextEntry(alias, ConnectionType.MSSQL, url, "sa", null, null, false, Map.of()));
            streams.append("""
                  - name: orders_%d
                    mode: live
                    schedule: {every: 1s, start_after: 1s}
                    source: mssql
                    sink: clickhouse
                    backend: mssql_cdc
                    pipeline_name: soak-%d
                    source_schema: dbo
                    source_table: orders
                    target_dataset: %s.orders_%d_cdc
                    unique_keys: [order_id]
                    source_connection_id: %s
                    sink_connection_id: %s
                    max_events: 5000
                    materialize: {target_dataset: %s.orders_%d_current}
                """.formatted(i, i, db, i, alias, TestEngines.CLICKHOUSE, db, i));
        }
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            ch.execute("CREATE DATABASE IF NOT EXISTS `" + db + "` ENGINE = Atomic");
        }
        Path manifest = Files.writeString(work.resolve("sales.batch.yaml"), """
            name: soak-sales
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: sales}
              options: {fetch_size: 5000, chunk_rows: 5000}
            sink:
              type: clickhouse
              connection_ref: %s
              table: {schema: %s, name: sales}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options:
                lineage: false
                order_by: [sale_id]
            certification:
              target_schema: %s
              scenarios:
                soak: {routes: [typed_raw_streaming, typed_binary_streaming, direct_push_columnar.chunked], repetitions: 1}
            """.formatted(TestEngines.SOURCE, TestEngines.CLICKHOUSE, db, db, db));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path config = Files.writeString(work.resolve("serve.yaml"), """
            http:
              port: %d
            state_dir: state
            shutdown:
              timeout: 30s
            jobs:
              - name: sales
                manifest: %s
                schedule: {every: 60s, start_after: 5s}
            certifications:
              - name: soak
                manifest: %s
                scenario: soak
                output: evidence
            %s
            """.formatted(port, manifest, manifest, streams));
        ServeConfig serveConfig = ServeConfigLoader.load(config);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        List<Thread> writers = new ArrayList<>();
        for (int i = 0; i < RATES.length; i++) {
            Thread w = new Thread(writer(sources.get(i), RATES[i], stop, written, i), "soak-writer-" + i);
            w.setDaemon(true);
            writers.add(w);
        }
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        System.out.printf(Locale.ROOT, "soak: %.1f min, a sample every %d s, CDC writers at %s changes/s%n", minutes,
            sampleSeconds, java.util.Arrays.toString(RATES));
        System.out.println("t_s\trss_mb\theap_after_gc_mb\tthreads\tfds\tparts\tdisk_mb\tleftovers\tjob_runs\tjob_failed"
            + "\tcdc_applied\tcdc_failed_ticks\tcertifications\twritten");
        long start = System.nanoTime();
        long end = start + (long) (minutes * 60e9);
        int certifications = 0;
        try (ServeRuntime serve = ServeRuntime.start(serveConfig, ConnectionContext.of(aliases, false), Map.of());
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            writers.forEach(Thread::start);
            long nextCert = start + 60_000_000_000L; // the first at one minute, then every ten
            long next = start;
            while (System.nanoTime() < end) {
                if (System.nanoTime() >= nextCert) {
                    Object result = ManagementFactory.getPlatformMBeanServer().invoke(
                        new ObjectName("io.dpone:type=certifications,name=soak"), "certify", new Object[0], new String[0]);
                    certifications++;
                    System.out.println("# certification " + certifications + ": " + String.valueOf(result)
                        .lines().findFirst().orElse(""));
                    nextCert += 600_000_000_000L;
                }
                next += sampleSeconds * 1_000_000_000L;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000); // the sampling period
                }
                sample(series, ch, serveConfig, work, (System.nanoTime() - start) / 1e9, certifications, written.get());
            }
            printDescriptors();
            stop.set(true);
            for (Thread w : writers) {
                w.join(10_000);
            }
        }
        for (H2CdcFixture s : sources) {
            s.close();
        }
        System.exit(verdict(series) ? 0 : 1);
    }

    private static void sample(Map<String, List<double[]>> series, ClickHouseEndpoint ch, ServeConfig config,
                               Path work, double t, int certifications, long written) throws Exception {
        System.gc(); // heap after GC: what stays reachable, not what waits for a collection
        double heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
        double rss = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmRSS:"))
            .mapToDouble(l -> Double.parseDouble(l.replaceAll("[^0-9]", "")) / 1024.0).findFirst().orElse(-1);
        double threads = ManagementFactory.getThreadMXBean().getThreadCount();
        double fds;
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            fds = s.count();
        }
        double parts = Double.parseDouble(ch.query("SELECT count() FROM system.parts WHERE active").get(0).get(0));
        double leftovers = Double.parseDouble(ch.query("SELECT count() FROM system.tables WHERE name LIKE"
            + " '%\\\\_\\\\_dpone\\\\_stg\\\\_\\\\_%' OR endsWith(name, '__dpone_cdc_stage')"
            + " OR endsWith(name, '__dpone_cdc_reseed')").get(0).get(0));
        double disk = (size(TestEngines.clickHousePath()) + size(work)) / 1048576.0;
        var mbs = ManagementFactory.getPlatformMBeanServer();
        long runs = (Long) mbs.getAttribute(new ObjectName("io.dpone:type=jobs,name=sales"), "Runs");
        long failed = (Long) mbs.getAttribute(new ObjectName("io.dpone:type=jobs,name=sales"), "FailedRuns");
        long applied = 0;
        long failedTicks = 0;
        for (int i = 0; i < RATES.length; i++) {
            ObjectName n = new ObjectName("io.dpone:type=cdc,name=orders_" + i);
            applied += (Long) mbs.getAttribute(n, "EventsApplied");
            failedTicks += (Long) mbs.getAttribute(n, "FailedTicks");
        }
        put(series, "rss_mb", t, rss);
        put(series, "heap_after_gc_mb", t, heap);
        put(series, "threads", t, threads);
        put(series, "fds", t, fds);
        put(series, "parts", t, parts);
        put(series, "disk_mb", t, disk);
        put(series, "leftovers", t, leftovers);
        System.out.printf(Locale.ROOT, "%.0f\t%.0f\t%.1f\t%.0f\t%.0f\t%.0f\t%.1f\t%.0f\t%d\t%d\t%d\t%d\t%d\t%d%n", t, rss,
            heap, threads, fds, parts, disk, leftovers, runs, failed, applied, failedTicks, certifications, written);
    }

    private static void put(Map<String, List<double[]>> series, String name, double t, double v) {
        series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {t, v});
    }

    /** Prints slope per hour and last-third vs middle-third growth for every series; false when one grew. */
    private static boolean verdict(Map<String, List<double[]>> series) {
        boolean flat = true;
        System.out.println("series\tslope_per_hour\tmiddle_third_mean\tlast_third_mean\tgrowth\tbound\tverdict");
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<double[]> s = e.getValue();
            int n = s.size();
            if (n < 6) {
                System.out.println(e.getKey() + "\ttoo few samples (" + n + ") to judge");
                flat = false;
                continue;
            }
            List<double[]> judged = s.subList(n / 3, n); // the first third is warm-up (JIT, caches, first runs)
            double middle = mean(s.subList(n / 3, 2 * n / 3));
            double last = mean(s.subList(2 * n / 3, n));
            double growth = last - middle;
            double[] bound = BOUNDS.get(e.getKey());
            String verdict = "reported";
            if (bound != null) {
                boolean grew = growth > bound[1] && growth > bound[0] * Math.max(middle, 1e-9);
                verdict = grew ? "GREW" : "flat";
                flat &= !grew;
            }
            System.out.printf(Locale.ROOT, "%s\t%.2f\t%.1f\t%.1f\t%+.1f\t%s\t%s%n", e.getKey(), slope(judged) * 3600,
                middle, last, growth, bound == null ? "-" : String.format(Locale.ROOT, "+%.0f%% and +%.0f",
                    bound[0] * 100, bound[1]), verdict);
        }
        System.out.println(flat ? "soak: flat" : "soak: GREW (see above)");
        return flat;
    }

    private static double mean(List<double[]> s) {
        return s.stream().mapToDouble(p -> p[1]).average().orElse(0);
    }

    /** Least-squares slope of value over seconds. */
    private static double slope(List<double[]> s) {
        double mt = s.stream().mapToDouble(p -> p[0]).average().orElse(0);
        double mv = mean(s);
        double num = 0;
        double den = 0;
        for (double[] p : s) {
            num += (p[0] - mt) * (p[1] - mv);
            den += (p[0] - mt) * (p[0] - mt);
        }
        return den == 0 ? 0 : num / den;
    }

    /** Bytes of the regular files under {@code root}; files removed while walking (a merge, a run's end) count 0. */
    private static long size(Path root) throws java.io.IOException {
        if (!Files.exists(root)) {
            return 0;
        }
        long[] total = {0};
        Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
                if (a.isRegularFile()) {
                    total[0] += a.size();
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, java.io.IOException e) {
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        return total[0];
    }

    /** The open file descriptors by kind (socket, pipe, anon_inode) or by the directory of the file they hold. */
    private static void printDescriptors() throws java.io.IOException {
        Map<String, Integer> kinds = new java.util.TreeMap<>();
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : s.toList()) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (java.io.IOException e) {
                    continue; // closed while listing
                }
                String kind = target.contains(":[") ? target.substring(0, target.indexOf(":["))
                    : target.startsWith("/") ? Path.of(target).getParent() + "/" : target;
                kinds.merge(kind.replaceAll("[0-9a-f]{8,}", "*").replaceAll("/[0-9]+(_[0-9]+)*/", "/*/"), 1,
                    Integer::sum);
            }
        }
        System.out.println("# open descriptors by kind at the end (most first):");
        kinds.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(12)
            .forEach(e -> System.out.println("#   " + e.getValue() + "\t" + e.getKey()));
    }

    private static void seedSales(String url, int rows) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS dbo");
            s.execute("CREATE TABLE dbo.sales (sale_id INT PRIMARY KEY, customer NVARCHAR(40), amount DECIMAL(18,2))");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO dbo.sales VALUES (?, ?, ?)")) {
                for (int i = 1; i <= rows; i++) {
                    p.setInt(1, i);
                    p.setString(2, "customer " + (i % 500));
                    p.setBigDecimal(3, java.math.BigDecimal.valueOf(i % 10_000, 2));
                    p.addBatch();
                    if (i % 5000 == 0) {
                        p.executeBatch();
                    }
                }
                p.executeBatch();
            }
        }
    }

    /**
     * A writer at {@code rate} changes/s, one transaction every 100 ms: inserts until {@link #KEYS} keys exist, then
     * updates (and one delete with its re-insert in twenty) of random keys; every minute the change table is cleaned
     * below the position of a minute ago, as the capture job's cleanup does with a short retention.
     */
    private static Runnable writer(H2CdcFixture fx, int rate, AtomicBoolean stop, AtomicLong written, int seed) {
        return () -> {
            Random random = new Random(seed);
            boolean[] present = new boolean[KEYS + 1];
            int inserted = 0;
            long startNs = System.nanoTime();
            byte[] minuteAgo = null;
            byte[] last = null;
            long nextCleanup = startNs + 60_000_000_000L;
            long done = 0;
            try {
                for (long slot = 1; !stop.get(); slot++) {
                    long due = rate * slot / 10;
                    H2CdcFixture.Txn txn = fx.txn();
                    int changes = 0;
                    for (; done < due; done++, changes++) {
                        if (inserted < KEYS) {
                            inserted++;
                            present[inserted] = true;
                            txn.insert(H2CdcFixture.row(inserted, "new", inserted + ".00", null, null));
                            continue;
                        }
                        int key = 1 + random.nextInt(KEYS);
                        if (!present[key]) {
                            present[key] = true;
                            txn.insert(H2CdcFixture.row(key, "back", key + ".00", null, null));
                        } else if (random.nextInt(20) == 0) {
                            present[key] = false;
                            txn.delete(H2CdcFixture.row(key, "gone", key + ".00", null, null));
                        } else {
                            txn.update(H2CdcFixture.row(key, "old", key + ".00", null, null),
                                H2CdcFixture.row(key, "upd" + done % 7, key + "." + (done % 100), null, null));
                        }
                    }
                    if (changes > 0) {
                        last = txn.commit();
                        written.addAndGet(changes);
                    }
                    if (System.nanoTime() >= nextCleanup) {
                        if (minuteAgo != null) {
                            fx.cleanupBelow(minuteAgo);
                        }
                        minuteAgo = last;
                        nextCleanup += 60_000_000_000L;
                    }
                    long sleep = startNs + slot * 100_000_000L - System.nanoTime();
                    if (sleep > 0) {
                        Thread.sleep(sleep / 1_000_000); // the writer's steady rate
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                System.err.println("soak writer " + seed + " stopped: " + e);
            }
        };
    }
}
