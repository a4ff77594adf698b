import com.sun.management.OperatingSystemMXBean;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import io.dpone.clickhouse.MetadataColumns;
import io.dpone.clickhouse.PartwiseTableStats;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark, not a test: the CPU of the gates' per-chunk target side ({@link PartwiseTableStats#countNewParts}, the
 * {@code dq} a run spends while chunks land), apart from everything else a run does. It prints what it measured and
 * asserts nothing.
 *
 * <p>Run as a single-file source program from the project root, against the jar to measure (run it once per build to
 * compare two commits on the same data):
 * <pre>
 * java -cp "target/dpone-*.jar:target/lib/*" bench/PartwiseGateBench.java --clickhouse DIR [--table analytics.sales]
 *     [--key sale_id] [--chunk-rows 100000] [--rounds 3] [--distinct sale_id,status]
 * </pre>
 * {@code DIR} is an embedded engine's data directory holding a loaded table ({@code $DPONE_HOME/clickhouse} after a
 * full refresh of the demo table); no other process may have it open. Each round copies the table into a fresh table
 * of the same shape ({@code bench_gate.t}, merges stopped as on a staging table) one chunk of {@code --chunk-rows}
 * rows at a time, in {@code --key} order (one part per insert), and after each insert times
 * {@code countNewParts()} as a run does after each chunk: the process CPU (every thread: the JVM's and the engine's
 * pools) and the wall clock. The inserts are not timed. {@code finish} (the gate's tail: the last count, the
 * distinct counts) is timed apart. Columns and per-column hashes are those a run of the table uses: every column
 * except the metadata columns, hashed when Decimal, Float or String (the fidelity gates' families).
 *
 * <p>It also times the two catalog reads {@code countNewParts} makes besides the part scan (the active parts in
 * {@code system.parts}, every call; the metadata columns in {@code system.columns}, the first call only), repeated
 * 200 times each on the last round's table.
 *
 * <p>Output: one {@code gate_round} line per round, one {@code gate_catalog} line, and a {@code gate_summary} line
 * with the median round: {@code count_cpu_s_per_mrows} is the per-chunk counts' process CPU per million rows.
 */
public final class PartwiseGateBench {
    private static final String DB = "bench_gate";
    private static final OperatingSystemMXBean OS =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    public static void main(String[] args) {
        Path dir = null;
        String table = "analytics.sales";
        String key = "sale_id";
        int chunkRows = 100_000;
        int rounds = 3;
        List<String> distinct = List.of("sale_id", "status");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--clickhouse" -> dir = Path.of(args[++i]);
                case "--table" -> table = args[++i];
                case "--key" -> key = args[++i];
                case "--chunk-rows" -> chunkRows = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--distinct" -> distinct = List.of(args[++i].split(","));
                default -> usage();
            }
        }
        if (dir == null) {
            usage();
        }
        String[] ref = table.split("\\.");
        String source = ClickHouseSql.table(ref[0], ref[1]);
        try (EmbeddedClickHouseEndpoint ch = EmbeddedClickHouseEndpoint.open(dir)) {
            List<String> columns = new ArrayList<>();
            List<String> hashed = new ArrayList<>();
            for (List<String> c : ch.query("SELECT name, type FROM system.columns WHERE database = "
                    + ClickHouseSql.literal(ref[0]) + " AND table = " + ClickHouseSql.literal(ref[1])
                    + " ORDER BY position")) {
                if (MetadataColumns.NAMES.contains(c.get(0))) {
                    continue;
                }
                columns.add(c.get(0));
                if (c.get(1).matches("(Nullable\\()?(Decimal|Float|String).*")) {
                    hashed.add(c.get(0));
                }
            }
            long rows = Long.parseLong(ch.query("SELECT count() FROM " + source).get(0).get(0));
            List<double[]> results = new ArrayList<>();
            for (int r = 1; r <= rounds; r++) {
                double[] m = round(ch, source, key, columns, hashed, distinct, rows, chunkRows);
                results.add(m);
                System.out.printf(Locale.ROOT, "gate_round round=%d rows=%d chunks=%d parts=%d count_cpu_s=%.3f "
                    + "count_wall_s=%.3f finish_cpu_s=%.3f finish_wall_s=%.3f count_cpu_s_per_mrows=%.3f%n", r, rows,
                    (long) m[4], (long) m[5], m[0], m[1], m[2], m[3], m[0] / (rows / 1e6));
            }
            catalog(ch);
            results.sort((a, b) -> Double.compare(a[0], b[0]));
            double[] med = results.get(results.size() / 2);
            System.out.printf(Locale.ROOT, "gate_summary rounds=%d rows=%d chunk_rows=%d columns=%d hashed=%d "
                + "distinct=%s median_count_cpu_s=%.3f count_cpu_s_per_mrows=%.3f median_finish_cpu_s=%.3f%n",
                rounds, rows, chunkRows, columns.size(), hashed.size(), String.join(",", distinct), med[0],
                med[0] / (rows / 1e6), med[2]);
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(DB));
        }
    }

    /** One copy of the table, chunk by chunk: {count cpu, count wall, finish cpu, finish wall, chunks, parts}. */
    private static double[] round(ClickHouseEndpoint ch, String source, String key, List<String> columns,
                                  List<String> hashed, List<String> distinct, long rows, int chunkRows) {
        ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(DB));
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(DB) + " ENGINE = Atomic");
        String target = ClickHouseSql.table(DB, "t");
        ch.execute("CREATE TABLE " + target + " AS " + source);
        PartwiseTableStats stats = PartwiseTableStats.start(ch, DB, "t", columns, hashed, "bench", 1, distinct);
        long cpu = 0;
        long wall = 0;
        long chunks = 0;
        for (long offset = 0; offset < rows; offset += chunkRows) {
            ch.execute("INSERT INTO " + target + " SELECT * FROM " + source + " ORDER BY " + ClickHouseSql.id(key)
                + " LIMIT " + chunkRows + " OFFSET " + offset);
            chunks++;
            if (offset + chunkRows >= rows) {
                break; // the last chunk is counted by finish, as in a run
            }
            long c0 = OS.getProcessCpuTime();
            long w0 = System.nanoTime();
            stats.countNewParts();
            wall += System.nanoTime() - w0;
            cpu += OS.getProcessCpuTime() - c0;
        }
        long parts = Long.parseLong(ch.query("SELECT count() FROM system.parts WHERE database = "
            + ClickHouseSql.literal(DB) + " AND table = 't' AND active").get(0).get(0));
        long c0 = OS.getProcessCpuTime();
        long w0 = System.nanoTime();
        stats.finish(distinct);
        long finishWall = System.nanoTime() - w0;
        long finishCpu = OS.getProcessCpuTime() - c0;
        return new double[] {cpu / 1e9, wall / 1e9, finishCpu / 1e9, finishWall / 1e9, chunks, parts};
    }

    /** The catalog reads of a per-chunk count besides the part scan, each repeated 200 times. */
    private static void catalog(ClickHouseEndpoint ch) {
        String parts = "SELECT name FROM system.parts WHERE database = " + ClickHouseSql.literal(DB)
            + " AND table = 't' AND active";
        String meta = "SELECT name FROM system.columns WHERE database = " + ClickHouseSql.literal(DB)
            + " AND table = 't'";
        double[] p = repeat(ch, parts, 200);
        double[] m = repeat(ch, meta, 200);
        System.out.printf(Locale.ROOT, "gate_catalog active_parts_ms_each=%.2f active_parts_cpu_ms_each=%.2f "
            + "metadata_columns_ms_each=%.2f metadata_columns_cpu_ms_each=%.2f%n", p[1], p[0], m[1], m[0]);
    }

    private static double[] repeat(ClickHouseEndpoint ch, String sql, int n) {
        ch.query(sql);
        long c0 = OS.getProcessCpuTime();
        long w0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            ch.query(sql);
        }
        return new double[] {(OS.getProcessCpuTime() - c0) / 1e6 / n, (System.nanoTime() - w0) / 1e6 / n};
    }

    private static void usage() {
        System.err.println("usage: PartwiseGateBench.java --clickhouse DIR [--table db.t] [--key col] "
            + "[--chunk-rows N] [--rounds N] [--distinct a,b]");
        System.exit(2);
    }
}
