import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.format.ByteBuf;
import io.dpone.format.ChunkWriter;
import io.dpone.format.ParquetFormat;
import io.dpone.format.parquet.ParquetColumn;
import io.dpone.format.parquet.ParquetWriteOptions;
import io.dpone.manifest.TableRef;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import io.dpone.storage.EmbeddedS3;
import io.dpone.storage.S3ObjectStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Benchmark, not a test: the CPU a Parquet chunk costs on both sides of {@code object_storage_pull_s3}, per write
 * option. It reads the demo table ({@code dbo.sales}, {@link DemoSalesGenerator}, seeded once into an H2 file database)
 * into memory as canonical rows, then for every variant of {@link ParquetWriteOptions}, in passes that interleave the
 * variants:
 * <ol>
 *   <li>encode: the rows through {@link ParquetFormat} into chunk files of {@code --chunk-rows} rows, as the route's
 *       encoder thread does (this thread's CPU and allocation from the JVM's per-thread accounting, plus the GC and
 *       JIT threads' CPU over the step);</li>
 *   <li>upload: every chunk into the in-process S3 ({@link EmbeddedS3}, S3Proxy over a filesystem directory) through
 *       the project's S3 client;</li>
 *   <li>pull: {@code INSERT INTO <Null table> SELECT <read expressions> FROM s3(<glob of the chunks>, 'Parquet',
 *       <structure>)} in the embedded ClickHouse, one statement over all chunks (the route's grouped pull), into a
 *       {@code Null} table so only the read is measured (not the MergeTree part write, which does not depend on the
 *       file); {@code --target mergetree} inserts into a MergeTree table ordered by the key instead.</li>
 * </ol>
 * Steps 2 and 3 are measured as the whole process's CPU by thread group ({@code /proc/self/task}, 10 ms ticks):
 * {@code main} (this thread: the S3 client, and the engine's work done inside the query call), {@code engine} (the
 * engine's own threads), {@code java} (other JVM threads: the in-process S3 server), {@code jit}, {@code gc}, and
 * {@code exited} (threads that ended during the step: the process's CPU ({@code /proc/self/stat}) less the live
 * threads'). The summary's upload and pull CPU is the whole process without {@code jit}: the JIT's work depends on
 * what ran before, not on the variant (a fresh JVM per variant with {@code --passes 0} shows the cold cost).
 * It prints one line per variant and pass and a summary (median and min over the passes); it asserts nothing except
 * that every pull loads every row.
 *
 * <pre>
 * ./mvnw -q -B -o -DskipTests package
 * java -Xmx3g -XX:+UseParallelGC -cp "target/dpone-0.1.0-SNAPSHOT.jar:target/lib/*" bench/ParquetEncodeBench.java \
 *   [--rows 1000000] [--chunk-rows 100000] [--passes 3] [--work /tmp/parquet-bench] [--target null|mergetree] \
 *   [--encode-only] [--variant NAME:key=value,...]...
 * </pre>
 * A variant starts from parquet-java's defaults ({@link ParquetWriteOptions#parquetJavaDefaults()}: dictionary on every
 * column, min/max and size statistics, page CRCs, ZSTD 1, 1 MiB / 20,000-row pages, row groups of 64 MiB / 256k rows)
 * or, with {@code base=current}, from {@link ParquetFormat#DEFAULT_OPTIONS}, and changes: {@code codec=zstd|none},
 * {@code level=N}, {@code dict=all|none|ENC+ENC} ({@link ParquetColumn.Encoding} names), {@code dictbytes=BYTES}
 * (dictionary fallback size), {@code stats=0|1} (min/max and column index), {@code sizestats=0|1}, {@code crc=0|1}, {@code page=BYTES}, {@code pagerows=N},
 * {@code rg=ROWS}. Without {@code --variant} a standard set runs.
 */
public final class ParquetEncodeBench {
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    record Variant(String name, ParquetWriteOptions options) {
    }

    record Figures(double encodeCpu, double encodeGc, double encodeJit, double allocMb, long bytes,
                   Map<String, Double> upload, Map<String, Double> pull) {
    }

    public static void main(String[] args) throws Exception {
        long rows = 1_000_000;
        int chunkRows = 100_000;
        int passes = 3;
        Path work = Path.of("/tmp/parquet-bench");
        String target = "null";
        boolean encodeOnly = false;
        List<String> specs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Long.parseLong(args[++i]);
                case "--chunk-rows" -> chunkRows = Integer.parseInt(args[++i]);
                case "--passes" -> passes = Integer.parseInt(args[++i]);
                case "--work" -> work = Path.of(args[++i]).toAbsolutePath();
                case "--target" -> target = args[++i];
                case "--encode-only" -> encodeOnly = true;
                case "--variant" -> specs.add(args[++i]);
                default -> {
                    System.err.println("unknown argument " + args[i] + "; see the class comment");
                    System.exit(2);
                }
            }
        }
        if (specs.isEmpty()) {
            specs = List.of("parquet-java", "current:base=current", "nocrc:crc=0", "nostats:stats=0,sizestats=0",
                "nosizestats:sizestats=0", "nodict:dict=none", "uncompressed:codec=none");
        }
        List<Variant> variants = specs.stream().map(ParquetEncodeBench::variant).toList();

        Files.createDirectories(work);
        List<SourceColumn> columns;
        Object[][] data;
        long t0 = System.nanoTime();
        String url = EmbeddedDefaults.h2Url(work.resolve("h2").resolve("demo"));
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            if (count(c) != rows) {
                System.out.printf(Locale.ROOT, "seeding %d demo rows into %s ...%n", rows, work.resolve("h2"));
                DemoSalesGenerator.seed(c, rows, 42);
            }
        }
        try (JdbcSourceReader reader = JdbcSourceReader.open(new ConnectionSpec("bench", ConnectionType.MSSQL, url,
            "sa", null, true, Map.of()))) {
            SourceTable table = reader.describe(new TableRef("dbo", "sales"), List.of());
            columns = table.columns();
            data = new Object[(int) rows][];
            try (RowCursor cursor = reader.open(table, 10_000, 0L)) {
                Object[] row = new Object[columns.size()];
                int n = 0;
                while (cursor.next(row)) {
                    data[n++] = row.clone();
                }
                if (n != rows) {
                    throw new IllegalStateException("read " + n + " rows, expected " + rows);
                }
            }
        }
        System.out.printf(Locale.ROOT, "rows %d in memory (%.1f s); columns: %s%n", rows,
            (System.nanoTime() - t0) / 1e9, columns.stream().map(c -> c.name() + "=" + ParquetColumn.of(c).encoding())
                .collect(Collectors.joining(" ")));
        System.out.printf(Locale.ROOT, "load avg at start: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());

        Map<String, List<Figures>> results = new LinkedHashMap<>();
        EmbeddedS3 s3 = encodeOnly ? null : EmbeddedS3.filesystem(work.resolve("s3"));
        EmbeddedClickHouseEndpoint ch = encodeOnly ? null : EmbeddedClickHouseEndpoint.open(work.resolve("clickhouse"));
        S3ObjectStore store = null;
        try {
            if (!encodeOnly) {
                s3.createBucket("bench");
                store = s3.store("bench", S3ObjectStore.Tuning.DEFAULTS);
                ch.execute("CREATE DATABASE IF NOT EXISTS bench_enc");
                ch.execute("DROP TABLE IF EXISTS bench_enc.t");
                ch.execute("CREATE TABLE bench_enc.t (" + columns.stream()
                    .map(c -> ClickHouseSql.id(c.name()) + " " + c.clickHouseType()).collect(Collectors.joining(", "))
                    + ") ENGINE = " + (target.equals("mergetree") ? "MergeTree ORDER BY " + columns.get(0).name()
                    : "Null"));
            }
            // pass 0 warms the JIT with the first variant and is not reported
            for (int pass = 0; pass <= passes; pass++) {
                for (Variant v : pass == 0 ? variants.subList(0, 1) : variants) {
                    Figures f = measure(v, columns, data, chunkRows, work, s3, store, ch, target);
                    if (pass > 0) {
                        results.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(f);
                    }
                    System.out.println((pass == 0 ? "warm-up " : "pass " + pass + " ") + line(v.name(), f, rows));
                }
            }
        } finally {
            if (store != null) {
                store.close();
            }
            if (ch != null) {
                ch.close();
            }
            if (s3 != null) {
                s3.close();
            }
        }
        System.out.printf(Locale.ROOT, "%nload avg at end: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.printf(Locale.ROOT, "SUMMARY per 1M rows, median (min) of %d passes; CPU seconds;"
            + " encode = this thread; upload, pull = the whole process (threads that ended included) without the"
            + " JIT compiler threads%n", passes);
        System.out.printf(Locale.ROOT, "%-22s %14s %8s %10s %8s %14s %14s %14s%n", "variant", "encode_cpu", "gc",
            "alloc_MB", "MB", "upload_cpu", "pull_cpu", "enc+up+pull");
        for (Variant v : variants) {
            List<Figures> fs = results.get(v.name());
            if (fs == null) {
                continue; // --passes 0: the warm-up line is the (cold) figure
            }
            double per = 1e6 / rows;
            System.out.printf(Locale.ROOT, "%-22s %14s %8.2f %10.0f %8.1f %14s %14s %14s%n", v.name(),
                stat(fs, f -> f.encodeCpu() * per), median(fs, f -> f.encodeGc() * per),
                median(fs, f -> f.allocMb() * per), median(fs, f -> f.bytes() / 1e6 * per),
                stat(fs, f -> total(f.upload()) * per), stat(fs, f -> total(f.pull()) * per),
                stat(fs, f -> (f.encodeCpu() + f.encodeGc() + total(f.upload()) + total(f.pull())) * per));
        }
    }

    private static Figures measure(Variant v, List<SourceColumn> columns, Object[][] data, int chunkRows, Path work,
                                   EmbeddedS3 s3, S3ObjectStore store, EmbeddedClickHouseEndpoint ch, String target)
        throws Exception {
        Path dir = work.resolve("chunks");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(dir);
        ParquetFormat format = new ParquetFormat(v.options());
        ByteBuf unused = new ByteBuf(16);
        List<Path> files = new ArrayList<>();
        System.gc();
        long tid = Thread.currentThread().getId();
        Map<String, Long> g0 = groups();
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long alloc0 = THREADS.getThreadAllocatedBytes(tid);
        for (int start = 0; start < data.length; start += chunkRows) {
            Path file = dir.resolve(String.format(Locale.ROOT, "chunk-%06d.parquet", files.size()));
            try (ChunkWriter w = format.open(file, columns)) {
                for (int r = start, end = Math.min(data.length, start + chunkRows); r < end; r++) {
                    w.write(data[r], unused);
                }
            }
            files.add(file);
        }
        double encode = (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e9;
        double alloc = (THREADS.getThreadAllocatedBytes(tid) - alloc0) / 1e6;
        Map<String, Double> enc = delta(g0, groups());
        long bytes = 0;
        for (Path f : files) {
            bytes += Files.size(f);
        }
        Map<String, Double> upload = Map.of();
        Map<String, Double> pull = Map.of();
        if (store != null) {
            String prefix = "run-" + v.name().replaceAll("[^a-z0-9]", "") + "-" + System.nanoTime() + "/";
            Map<String, Long> u0 = groups();
            for (Path f : files) {
                store.put(prefix + f.getFileName(), f);
            }
            upload = delta(u0, groups());
            String glob = store.url(prefix + "chunk-") + "{" + files.stream()
                .map(f -> f.getFileName().toString().substring(6, 12)).collect(Collectors.joining(",")) + "}.parquet";
            String select = columns.stream().map(format::readExpression).collect(Collectors.joining(", "));
            String sql = "INSERT INTO bench_enc.t SELECT " + select + " FROM s3(" + ClickHouseSql.literal(glob) + ", "
                + ClickHouseSql.literal(s3.accessKey()) + ", " + ClickHouseSql.literal(s3.secretKey())
                + ", 'Parquet', " + ClickHouseSql.literal(format.structure(columns)) + ") SETTINGS"
                + " s3_throw_on_zero_files_match = 1, min_insert_block_size_rows = 100000,"
                + " min_insert_block_size_bytes = 33554432, input_format_parquet_memory_high_watermark = 134217728";
            if (target.equals("mergetree")) {
                ch.execute("TRUNCATE TABLE bench_enc.t");
            }
            Map<String, Long> p0 = groups();
            ch.execute(sql);
            pull = delta(p0, groups());
            if (target.equals("mergetree")) {
                long n = Long.parseLong(ch.query("SELECT count() FROM bench_enc.t").get(0).get(0));
                if (n != data.length) {
                    throw new IllegalStateException("pulled " + n + " rows, expected " + data.length);
                }
            } else {
                long n = Long.parseLong(ch.query("SELECT count() FROM s3(" + ClickHouseSql.literal(glob) + ", "
                    + ClickHouseSql.literal(s3.accessKey()) + ", " + ClickHouseSql.literal(s3.secretKey())
                    + ", 'Parquet', " + ClickHouseSql.literal(format.structure(columns)) + ")").get(0).get(0));
                if (n != data.length) {
                    throw new IllegalStateException("the chunks hold " + n + " rows, expected " + data.length);
                }
            }
            store.deletePrefix(prefix);
        }
        return new Figures(encode, enc.getOrDefault("gc", 0.0), enc.getOrDefault("jit", 0.0), alloc, bytes, upload,
            pull);
    }

    private static String line(String name, Figures f, long rows) {
        return String.format(Locale.ROOT, "%-22s encode_cpu=%.2fs gc=%.2fs jit=%.2fs alloc=%.0fMB bytes=%d"
                + " upload_cpu=%.2fs %s pull_cpu=%.2fs %s load1=%s", name, f.encodeCpu(), f.encodeGc(), f.encodeJit(),
            f.allocMb(), f.bytes(), total(f.upload()), f.upload(), total(f.pull()), f.pull(), load1());
    }

    private static String load1() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "n/a";
        }
    }

    /** CPU seconds of a step without the JIT compiler's (which depends on what ran before, not on the variant). */
    private static double total(Map<String, Double> m) {
        return m.entrySet().stream().filter(e -> !e.getKey().equals("jit")).mapToDouble(Map.Entry::getValue).sum();
    }

    private static String stat(List<Figures> fs, java.util.function.ToDoubleFunction<Figures> f) {
        double[] v = fs.stream().mapToDouble(f).sorted().toArray();
        return String.format(Locale.ROOT, "%.2f (%.2f)", median(v), v[0]);
    }

    private static double median(List<Figures> fs, java.util.function.ToDoubleFunction<Figures> f) {
        return median(fs.stream().mapToDouble(f).sorted().toArray());
    }

    private static double median(double[] v) {
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Builds a variant from {@code NAME[:key=value,...]}; see the class comment. */
    static Variant variant(String spec) {
        int colon = spec.indexOf(':');
        String name = colon < 0 ? spec : spec.substring(0, colon);
        ParquetWriteOptions o = ParquetWriteOptions.parquetJavaDefaults();
        List<String> kvs = colon < 0 ? List.of() : Arrays.asList(spec.substring(colon + 1).split(","));
        for (String kv : kvs) {
            if (kv.equals("base=current")) {
                o = ParquetFormat.DEFAULT_OPTIONS;
            }
        }
        for (String kv : kvs) {
            String[] p = kv.split("=", 2);
            o = switch (p[0]) {
                case "base" -> o;
                case "codec" -> o.withCodec(p[1].equals("none") ? CompressionCodecName.UNCOMPRESSED
                    : CompressionCodecName.ZSTD, o.level());
                case "level" -> o.withCodec(o.codec(), Integer.parseInt(p[1]));
                case "dict" -> o.withDictionary(p[1].equals("all") ? EnumSet.allOf(ParquetColumn.Encoding.class)
                    : p[1].equals("none") ? Set.of() : Arrays.stream(p[1].split("\\+"))
                    .map(ParquetColumn.Encoding::valueOf).collect(Collectors.toSet()), o.dictionaryBytes());
                case "dictbytes" -> o.withDictionary(o.dictionary(), Integer.parseInt(p[1]));
                case "stats" -> o.withStatistics(p[1].equals("1"), o.sizeStatistics());
                case "sizestats" -> o.withStatistics(o.statistics(), p[1].equals("1"));
                case "crc" -> o.withPageChecksums(p[1].equals("1"));
                case "page" -> o.withPages(Integer.parseInt(p[1]), o.pageRows());
                case "pagerows" -> o.withPages(o.pageBytes(), Integer.parseInt(p[1]));
                case "rg" -> o.withRowGroups(o.rowGroupBytes(), Long.parseLong(p[1]));
                default -> throw new IllegalArgumentException("unknown variant key " + p[0]);
            };
        }
        return new Variant(name, o);
    }

    private static long count(Connection c) {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM dbo.sales")) {
            rs.next();
            return rs.getLong(1);
        } catch (Exception e) {
            return -1;
        }
    }

    // ---- per-thread CPU from /proc/self/task, grouped as bench/thread-cpu.sh groups them

    private static Map<String, Long> groups() throws Exception {
        Map<String, Long> ticks = new TreeMap<>();
        String self = Thread.currentThread().getName();
        long selfNative = -1;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : tasks.toList()) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (Exception gone) {
                    continue;
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String comm = stat.substring(open + 1, close);
                String[] f = stat.substring(close + 2).split(" ");
                long cpu = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                ticks.merge(group(comm, self), cpu, Long::sum);
            }
        }
        // the whole process, threads that ended included: what no live thread accounts for is "exited"
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long total = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        long live = ticks.values().stream().mapToLong(Long::longValue).sum();
        ticks.put("exited", total - live);
        return ticks;
    }

    private static String group(String comm, String self) {
        if (comm.equals(self) || comm.equals("java")) {
            return "main";
        }
        if (comm.matches("C[12] CompilerThre.*")) {
            return "jit";
        }
        if (comm.matches("(GC Thread|G1 |VM Thread|VM Periodic|ParGC|Service Thread|Monitor Deflati|Sweeper).*")) {
            return "gc";
        }
        if (comm.matches("(dpone-|Camel|Reference Handl|Finalizer|Signal Dispatch|Common-Cleaner|Notification Th"
            + "|Attach Listener|JNA|pool-|ForkJoinPool|Timer|process reaper|RMI|JMX|logback|HttpClient|sdk-|aws-"
            + "|Thread-|qtp|s3proxy|idle-timeout|Scheduler|Connector|jetty|Jetty|H2 |DestroyJavaVM|Keep-Alive"
            + "|Cleaner|Log4j|Okio|OkHttp|netty|Java2D|JFR|user|Idle|Connection).*")) {
            return "java";
        }
        return "engine";
    }

    private static Map<String, Double> delta(Map<String, Long> a, Map<String, Long> b) {
        double hz = 100.0; // CLK_TCK on Linux
        Map<String, Double> d = new TreeMap<>();
        for (Map.Entry<String, Long> e : b.entrySet()) {
            long v = e.getValue() - a.getOrDefault(e.getKey(), 0L);
            if (v != 0) {
                d.put(e.getKey(), Math.round(v / hz * 100) / 100.0);
            }
        }
        return d;
    }
}
