import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.format.ByteBuf;
import io.dpone.format.ChunkWriter;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.format.RowBinaryFormat;
import io.dpone.manifest.TableRef;
import io.dpone.quality.SourceStatsCollector;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceTable;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark, not a test: what the binary route's encoder thread costs per row, in CPU and in bytes allocated, with
 * the source out of the way (issue 19, item 4: allocation per row). It prints what it measured and asserts nothing.
 *
 * <p>Run from the project root after a build ({@code target/cp.txt}: see bench/README.md):
 * <pre>
 * java -Xmx2g -XX:+UseParallelGC -cp "target/classes:$(cat target/cp.txt)" bench/EncodeAllocBench.java \
 *     [--rows 100000] [--reps 30] [--warmup 10] [--dir bench/.work/encode-alloc]
 * </pre>
 * It seeds {@code dbo.sales} ({@link DemoSalesGenerator}, seed 42) in an in-memory H2 in MSSQLServer mode and reads
 * every row once with {@link JdbcSourceReader} into memory (the canonical values the encoder receives). Then, per
 * repetition, it runs the loop of {@code ChunkProducer} over those rows: {@link RowBinaryEncoder#encode} with
 * column offsets, {@link SourceStatsCollector#row} (typed hash, NULL counts, distinct sets of sale_id and status as
 * in the demo manifest) and the RowBinary chunk writer to a file, measuring this thread's CPU time
 * ({@code ThreadMXBean}) and the bytes it allocated ({@code com.sun.management.ThreadMXBean
 * .getThreadAllocatedBytes}, exact, not sampled). The first {@code warmup} repetitions are not counted (JIT).
 *
 * <p>Output: {@code encode ... cpu_ns_per_row_median=... alloc_bytes_per_row_median=...}. It also prints the
 * reading side's allocation per row for {@code RowCursor.next} into a new {@code Object[]} per row (as
 * {@code RowPrefetcher} does) and into one reused array: the difference is the row array itself.
 */
public final class EncodeAllocBench {
    public static void main(String[] args) throws Exception {
        int rows = 100_000;
        int reps = 30;
        int warmup = 10;
        Path dir = Path.of("bench/.work/encode-alloc");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[++i]);
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: EncodeAllocBench [--rows N] [--reps N] [--warmup N] [--dir D]");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(dir);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        String url = "jdbc:h2:mem:encode_bench;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;"
            + "CASE_INSENSITIVE_IDENTIFIERS=TRUE;DB_CLOSE_DELAY=-1";
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            DemoSalesGenerator.seed(c, rows, 42);
        }
        ConnectionSpec spec = new ConnectionSpec("bench_source", ConnectionType.MSSQL, url, "sa", null, false, null);
        SourceTable table;
        List<Object[]> data = new ArrayList<>(rows);
        long[] readFresh = new long[3];
        long[] readReused = new long[3];
        try (JdbcSourceReader reader = JdbcSourceReader.open(spec)) {
            table = reader.describe(new TableRef("dbo", DemoSalesGenerator.TABLE), List.of());
            int columns = table.columns().size();
            for (int r = 0; r < 3; r++) { // the last of three passes counts: the earlier ones warm up
                long a0 = threads.getThreadAllocatedBytes(self);
                try (RowCursor cursor = reader.open(table, 10_000, 0)) {
                    Object[] row = new Object[columns];
                    while (cursor.next(row)) {
                        if (r == 2) {
                            data.add(row);
                        }
                        row = new Object[columns];
                    }
                }
                readFresh[r] = threads.getThreadAllocatedBytes(self) - a0;
                a0 = threads.getThreadAllocatedBytes(self);
                try (RowCursor cursor = reader.open(table, 10_000, 0)) {
                    Object[] row = new Object[columns];
                    while (cursor.next(row)) {
                        // the values are dropped with the next row
                    }
                }
                readReused[r] = threads.getThreadAllocatedBytes(self) - a0;
            }
        }
        System.out.println(String.format(Locale.ROOT,
            "read rows=%d alloc_bytes_per_row_new_array=%.1f alloc_bytes_per_row_reused_array=%.1f", rows,
            readFresh[2] / (double) rows, readReused[2] / (double) rows));

        RowBinaryEncoder encoder = new RowBinaryEncoder(table.columns());
        RowBinaryFormat format = new RowBinaryFormat();
        int[] offsets = new int[table.columns().size() + 1];
        ByteBuf buf = new ByteBuf(64 * 1024);
        long[] cpu = new long[reps];
        long[] alloc = new long[reps];
        Path file = dir.resolve("chunk.rowbinary");
        long sink = 0;
        for (int r = -warmup; r < reps; r++) {
            long t0 = threads.getCurrentThreadCpuTime();
            long a0 = threads.getThreadAllocatedBytes(self);
            SourceStatsCollector evidence = new SourceStatsCollector(table, 1, List.of("sale_id", "status"));
            try (ChunkWriter out = format.open(file, table.columns())) {
                for (Object[] row : data) {
                    buf.reset();
                    encoder.encode(row, buf, offsets);
                    evidence.row(row, buf.array(), offsets);
                    out.write(row, buf);
                }
                sink += out.bytes();
            }
            sink += evidence.finish(sink).typedHash();
            long a1 = threads.getThreadAllocatedBytes(self);
            long t1 = threads.getCurrentThreadCpuTime();
            if (r >= 0) {
                cpu[r] = t1 - t0;
                alloc[r] = a1 - a0;
            }
        }
        System.out.println(String.format(Locale.ROOT,
            "encode rows=%d reps=%d cpu_ns_per_row_median=%.0f cpu_ns_per_row_min=%.0f alloc_bytes_per_row_median=%.1f"
                + " cpu_s_per_1m_rows=%.3f (checksum: bytes + typed hash %d)",
            rows, reps, median(cpu) / (double) rows, min(cpu) / (double) rows, median(alloc) / (double) rows,
            median(cpu) / 1e9 * 1_000_000.0 / rows, sink));
        Files.deleteIfExists(file);
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
