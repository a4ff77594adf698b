import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.format.ByteBuf;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.manifest.TableRef;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceColumn;
import io.dpone.source.SourceTable;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Benchmark, not a test: the embedded engine's cost of loading one chunk of the demo table from a RowBinary file
 * against the same chunk as a ClickHouse Native file (issue 19, item 4). It prints what it measured and asserts
 * nothing.
 *
 * <p>Run from the project root after a build ({@code target/cp.txt}: see bench/README.md):
 * <pre>
 * java -Xmx2g -XX:+UseParallelGC -cp "target/classes:$(cat target/cp.txt)" bench/NativeInsertBench.java \
 *     [--rows 100000] [--reps 15] [--warmup 3] [--dir bench/.work/native-insert]
 * </pre>
 *
 * <ol>
 *   <li>Seeds {@code dbo.sales} ({@link DemoSalesGenerator}, seed 42) in an in-memory H2 in MSSQLServer mode, reads
 *       it with {@link JdbcSourceReader} and writes every row with dpone's {@link RowBinaryEncoder}: the chunk file
 *       the binary route spools.</li>
 *   <li>Has chDB convert that file to Native once ({@code INSERT INTO FUNCTION file(..., 'Native') SELECT * FROM
 *       file(..., 'RowBinary', structure)}).</li>
 *   <li>Creates a table shaped like the route's staging table (the mapped columns, the four metadata columns,
 *       MergeTree ORDER BY sale_id) with its merges stopped, and runs the route's insert
 *       {@code INSERT INTO t (cols) SELECT cols, metadata FROM file(path, fmt, structure)} for each format in turn,
 *       alternating, {@code warmup} times untimed and {@code reps} times timed, truncating the table between
 *       inserts (untimed). The same pair is then run into an {@code ENGINE = Null} table of the same columns: the
 *       read and parse of the file and the SELECT alone, without the MergeTree part write (sort, compress, fsync).</li>
 * </ol>
 * Per insert it samples the process CPU time (the sum over {@code /proc/self/task/<tid>/schedstat} of every thread's
 * time on a CPU, in nanoseconds: chDB's pools included; {@code OperatingSystemMXBean.getProcessCpuTime} ticks in
 * 10 ms here, too coarse for a 50 ms insert), the calling thread's CPU time (chDB runs part of the query on it) and the wall clock; it prints
 * the median and the minimum of each per format and the per-1M-rows difference of the process CPU medians.
 */
public final class NativeInsertBench {
    public static void main(String[] args) throws Exception {
        int rows = 100_000;
        int reps = 15;
        int warmup = 3;
        Path dir = Path.of("bench/.work/native-insert");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[++i]);
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: NativeInsertBench [--rows N] [--reps N] [--warmup N] [--dir D]");
                    System.exit(2);
                }
            }
        }
        dir = dir.toAbsolutePath();
        Files.createDirectories(dir);
        Path rowBinary = dir.resolve("chunk.rowbinary");
        Path nativeFile = dir.resolve("chunk.native");
        SourceTable table = writeRowBinary(rows, rowBinary);
        List<SourceColumn> columns = table.columns();
        String structure = columns.stream().map(c -> ClickHouseSql.id(c.name()) + " " + c.clickHouseType())
            .collect(Collectors.joining(", "));

        try (EmbeddedClickHouseEndpoint ch = EmbeddedClickHouseEndpoint.open(dir.resolve("clickhouse"))) {
            Files.deleteIfExists(nativeFile);
            ch.execute("INSERT INTO FUNCTION file(" + ClickHouseSql.literal(nativeFile.toString()) + ", 'Native') SELECT * FROM file("
                + ClickHouseSql.literal(rowBinary.toString()) + ", 'RowBinary', " + ClickHouseSql.literal(structure) + ")");
            System.out.println(String.format(Locale.ROOT, "files rows=%d rowbinary_bytes=%d native_bytes=%d",
                rows, Files.size(rowBinary), Files.size(nativeFile)));

            ch.execute("CREATE DATABASE IF NOT EXISTS bench_ref");
            List<String> names = new ArrayList<>(columns.stream().map(SourceColumn::name).toList());
            names.addAll(MetadataColumns.NAMES);
            String select = columns.stream().map(c -> ClickHouseSql.id(c.name())).collect(Collectors.joining(", "))
                + ", " + MetadataColumns.values("bench-run", "bench-load", Instant.parse("2026-12-04T00:00:00Z"));
            String[] files = {rowBinary.toString(), nativeFile.toString()};
            for (String engine : List.of("MergeTree ORDER BY (" + ClickHouseSql.id("sale_id") + ")", "Null")) {
                ch.execute("DROP TABLE IF EXISTS bench_ref.native_insert");
                ch.execute("CREATE TABLE bench_ref.native_insert (" + structure + ", " + MetadataColumns.ddl()
                    + ") ENGINE = " + engine);
                boolean mergeTree = engine.startsWith("MergeTree");
                if (mergeTree) {
                    ch.execute("SYSTEM STOP MERGES bench_ref.native_insert");
                }
                String[] sql = new String[2];
                for (int f = 0; f < 2; f++) {
                    sql[f] = "INSERT INTO bench_ref.native_insert (" + ClickHouseSql.idList(names) + ") SELECT "
                        + select + " FROM file(" + ClickHouseSql.literal(files[f]) + ", "
                        + ClickHouseSql.literal(FORMATS[f]) + ", " + ClickHouseSql.literal(structure) + ")";
                }
                measure(ch, sql, rows, reps, warmup, mergeTree, mergeTree ? "MergeTree" : "Null");
            }
            ch.execute("DROP TABLE bench_ref.native_insert");
        }
    }

    private static final String[] FORMATS = {"RowBinary", "Native"};

    /** Runs both inserts alternately; the MergeTree table is truncated (untimed) before each and its rows counted. */
    private static void measure(EmbeddedClickHouseEndpoint ch, String[] sql, int rows, int reps, int warmup,
                                boolean check, String engine) throws Exception {
        long[][] cpu = new long[2][reps];
        long[][] threadCpu = new long[2][reps];
        long[][] wall = new long[2][reps];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int r = -warmup; r < reps; r++) {
            for (int f = 0; f < 2; f++) {
                if (check) {
                    ch.execute("TRUNCATE TABLE bench_ref.native_insert");
                }
                long c0 = taskCpuNanos();
                long t0 = threads.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                ch.execute(sql[f]);
                long w1 = System.nanoTime();
                long t1 = threads.getCurrentThreadCpuTime();
                long c1 = taskCpuNanos();
                if (check) {
                    long count = Long.parseLong(ch.query("SELECT count() FROM bench_ref.native_insert").get(0).get(0));
                    if (count != rows) {
                        throw new IllegalStateException(FORMATS[f] + " loaded " + count + " rows, expected " + rows);
                    }
                }
                if (r >= 0) {
                    cpu[f][r] = c1 - c0;
                    threadCpu[f][r] = t1 - t0;
                    wall[f][r] = w1 - w0;
                }
            }
        }
        for (int f = 0; f < 2; f++) {
            System.out.println(String.format(Locale.ROOT,
                "insert engine=%s format=%s rows=%d reps=%d process_cpu_ms_median=%.1f process_cpu_ms_min=%.1f"
                    + " caller_cpu_ms_median=%.1f wall_ms_median=%.1f wall_ms_min=%.1f process_cpu_s_per_1m_rows=%.3f",
                engine, FORMATS[f], rows, reps, median(cpu[f]) / 1e6, min(cpu[f]) / 1e6, median(threadCpu[f]) / 1e6,
                median(wall[f]) / 1e6, min(wall[f]) / 1e6, median(cpu[f]) / 1e9 * 1_000_000.0 / rows));
        }
        System.out.println(String.format(Locale.ROOT,
            "saving engine=%s native_vs_rowbinary process_cpu_s_per_1m_rows=%.3f wall_s_per_1m_rows=%.3f", engine,
            (median(cpu[0]) - median(cpu[1])) / 1e9 * 1_000_000.0 / rows,
            (median(wall[0]) - median(wall[1])) / 1e9 * 1_000_000.0 / rows));
    }

    /** Seeds the demo table in an in-memory H2 and spools it as the binary route does: dpone's RowBinary bytes. */
    private static SourceTable writeRowBinary(int rows, Path file) throws Exception {
        String url = "jdbc:h2:mem:native_bench;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;"
            + "CASE_INSENSITIVE_IDENTIFIERS=TRUE;DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            DemoSalesGenerator.seed(c, rows, 42);
        }
        ConnectionSpec spec = new ConnectionSpec("bench_source", ConnectionType.MSSQL, url, "sa", null, false, null);
        try (JdbcSourceReader reader = JdbcSourceReader.open(spec)) {
            SourceTable table = reader.describe(new TableRef("dbo", DemoSalesGenerator.TABLE), List.of());
            RowBinaryEncoder encoder = new RowBinaryEncoder(table.columns());
            ByteBuf buf = new ByteBuf(64 * 1024);
            Object[] row = new Object[table.columns().size()];
            try (RowCursor cursor = reader.open(table, 10_000, 0);
                 OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
                while (cursor.next(row)) {
                    buf.reset();
                    encoder.encode(row, buf);
                    buf.writeTo(out);
                }
            }
            return table;
        }
    }

    /** CPU time of every live thread of this process, in ns ({@code schedstat}'s first field). */
    private static long taskCpuNanos() throws java.io.IOException {
        long sum = 0;
        try (java.nio.file.DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String s = Files.readString(task.resolve("schedstat"));
                    sum += Long.parseLong(s.substring(0, s.indexOf(' ')));
                } catch (java.io.IOException gone) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return sum;
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static long min(long[] v) {
        return Arrays.stream(v).min().orElse(0);
    }
}
