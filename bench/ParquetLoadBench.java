import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark, not a test: the embedded ClickHouse (chDB) loading rows from a ready Parquet file, with no dpone code
 * in the data path. It is the "engine alone" reference next to the routes in {@code bench/routes.sh}. It prints what
 * it measured and asserts nothing.
 *
 * <p>Run as a single-file source program from the project root, against the same jar as the routes:
 * <pre>
 * java -cp "target/dpone-*.jar:target/lib/*" bench/ParquetLoadBench.java export --clickhouse DIR --file F [--table analytics.sales]
 * java -cp "target/dpone-*.jar:target/lib/*" bench/ParquetLoadBench.java load   --clickhouse DIR --file F [--table analytics.sales]
 * </pre>
 * {@code DIR} is the embedded engine's data directory ({@code $DPONE_HOME/clickhouse}); no other process may have it
 * open.
 *
 * <ul>
 *   <li>{@code export}: {@code SELECT * FROM <table> INTO OUTFILE 'F' FORMAT Parquet} (the loaded target, with its
 *       metadata columns). Done once per row count.</li>
 *   <li>{@code load}: {@code CREATE TABLE bench_ref.parquet_load AS <table>} (same columns, same MergeTree and
 *       ORDER BY), then {@code INSERT INTO bench_ref.parquet_load SELECT * FROM file('F', Parquet)}, each timed, then
 *       the table is dropped. {@code rows_per_s} is rows / insert seconds; {@code create_insert_rows_per_s} adds the
 *       CREATE.</li>
 * </ul>
 * Output: one line of {@code key=value} pairs starting with {@code parquet_export} or {@code parquet_load}.
 * {@code open_seconds} is the engine start (library load and data directory attach), not part of the rates.
 * {@code peak_rss_mib} is this JVM's VmHWM: chDB runs in-process; it includes compiling this file.
 */
public final class ParquetLoadBench {
    private static final String REF_DB = "bench_ref";
    private static final String REF_TABLE = REF_DB + ".parquet_load";

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            usage();
        }
        String mode = args[0];
        Path dir = null;
        Path file = null;
        String table = "analytics.sales";
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--clickhouse" -> dir = Path.of(args[++i]);
                case "--file" -> file = Path.of(args[++i]).toAbsolutePath();
                case "--table" -> table = args[++i];
                default -> usage();
            }
        }
        if (dir == null || file == null || !(mode.equals("export") || mode.equals("load"))) {
            usage();
        }
        long t0 = System.nanoTime();
        try (EmbeddedClickHouseEndpoint ch = EmbeddedClickHouseEndpoint.open(dir)) {
            double open = (System.nanoTime() - t0) / 1e9;
            if (mode.equals("export")) {
                export(ch, table, file, open);
            } else {
                load(ch, table, file, open);
            }
        }
    }

    private static void export(EmbeddedClickHouseEndpoint ch, String table, Path file, double open) throws Exception {
        long rows = count(ch, table);
        Files.deleteIfExists(file);
        Files.createDirectories(file.getParent());
        long t0 = System.nanoTime();
        ch.execute("SELECT * FROM " + table + " INTO OUTFILE " + literal(file.toString()) + " FORMAT Parquet");
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.println(String.format(Locale.ROOT,
            "parquet_export rows=%d file_bytes=%d seconds=%.3f open_seconds=%.3f peak_rss_mib=%.1f",
            rows, Files.size(file), secs, open, vmHwmKib() / 1024.0));
    }

    private static void load(EmbeddedClickHouseEndpoint ch, String table, Path file, double open) throws Exception {
        ch.execute("CREATE DATABASE IF NOT EXISTS " + REF_DB);
        ch.execute("DROP TABLE IF EXISTS " + REF_TABLE); // no SYNC: chDB 26.5 never returns from DROP ... SYNC
        long t0 = System.nanoTime();
        ch.execute("CREATE TABLE " + REF_TABLE + " AS " + table);
        long t1 = System.nanoTime();
        ch.execute("INSERT INTO " + REF_TABLE + " SELECT * FROM file(" + literal(file.toString()) + ", 'Parquet')");
        long t2 = System.nanoTime();
        long rows = count(ch, REF_TABLE);
        ch.execute("DROP TABLE " + REF_TABLE);
        double create = (t1 - t0) / 1e9;
        double insert = (t2 - t1) / 1e9;
        System.out.println(String.format(Locale.ROOT,
            "parquet_load rows=%d file_bytes=%d create_seconds=%.3f insert_seconds=%.3f rows_per_s=%.0f"
                + " create_insert_rows_per_s=%.0f mb_per_s=%.1f open_seconds=%.3f peak_rss_mib=%.1f",
            rows, Files.size(file), create, insert, rows / insert, rows / (create + insert),
            Files.size(file) / 1e6 / insert, open, vmHwmKib() / 1024.0));
    }

    private static long count(EmbeddedClickHouseEndpoint ch, String table) {
        List<List<String>> r = ch.query("SELECT count() FROM " + table);
        return Long.parseLong(r.get(0).get(0));
    }

    private static String literal(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static void usage() {
        System.err.println("usage: ParquetLoadBench export|load --clickhouse DIR --file F [--table db.table]");
        System.exit(2);
    }

    /** Peak resident set size of this process in KiB (Linux {@code VmHWM}), or -1 where unavailable. */
    private static long vmHwmKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception ignored) {
            // not Linux: report -1
        }
        return -1;
    }
}
