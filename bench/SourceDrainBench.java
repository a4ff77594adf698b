import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.manifest.TableRef;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.RowCursor;
import io.dpone.source.SourceTable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark, not a test: reads every row of a source table through {@link JdbcSourceReader} exactly as a full refresh
 * opens it (same connection resolution, describe, {@code RowCursor}, fetch size) and discards the rows: no encoding,
 * no hashing, no spool, no sink. It prints what it measured and asserts nothing.
 *
 * <p>Run as a single-file source program from the project root:
 * {@code java -cp "target/dpone-*.jar:target/lib/*" bench/SourceDrainBench.java [--alias A] [--table dbo.sales]
 * [--fetch-size N]}. The connection context is the process's ({@code DPONE_RUNTIME_CONNECTION_CONTEXT}, else the
 * embedded default under {@code $DPONE_HOME}).
 *
 * <p>Output: one line of {@code key=value} pairs, starting with {@code drain}, so a script can pick it up.
 * {@code read_seconds} covers executeQuery plus the whole iteration, split into {@code query_seconds} (the
 * {@code RowCursor} open, i.e. executeQuery: without {@code LAZY_QUERY_EXECUTION=1} on the H2 URL, as before commit
 * 41ba412, H2 materialises the whole result there) and {@code iterate_seconds};
 * {@code total_seconds} adds connect and describe.
 * {@code peak_rss_mib} is this JVM's VmHWM, which includes the in-memory compilation of this very file by the
 * single-file source launcher.
 */
public final class SourceDrainBench {
    public static void main(String[] args) throws Exception {
        String alias = "mssql_demo";
        String table = "dbo.sales";
        int fetchSize = 10_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--alias" -> alias = args[++i];
                case "--table" -> table = args[++i];
                case "--fetch-size" -> fetchSize = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: SourceDrainBench [--alias A] [--table schema.name] [--fetch-size N]");
                    System.exit(2);
                }
            }
        }
        int dot = table.indexOf('.');
        TableRef ref = new TableRef(table.substring(0, dot), table.substring(dot + 1));

        long t0 = System.nanoTime();
        ConnectionSpec spec = ConnectionContext.fromEnvironment().resolve(alias, ConnectionType.MSSQL, "--alias");
        long rows = 0;
        long tRead;
        long tFirst;
        int columns;
        try (JdbcSourceReader reader = JdbcSourceReader.open(spec)) {
            SourceTable described = reader.describe(ref, List.of());
            columns = described.columns().size();
            Object[] row = new Object[columns];
            tRead = System.nanoTime();
            try (RowCursor cursor = openAll(reader, described, fetchSize)) {
                tFirst = System.nanoTime();
                while (cursor.next(row)) {
                    rows++;
                }
            }
        }
        long tEnd = System.nanoTime();
        double readSeconds = (tEnd - tRead) / 1e9;
        double totalSeconds = (tEnd - t0) / 1e9;
        System.out.println(String.format(Locale.ROOT,
            "drain rows=%d columns=%d fetch_size=%d read_seconds=%.3f query_seconds=%.3f iterate_seconds=%.3f"
                + " total_seconds=%.3f read_rows_per_s=%.0f total_rows_per_s=%.0f peak_rss_mib=%.1f",
            rows, columns, fetchSize, readSeconds, (tFirst - tRead) / 1e9, (tEnd - tFirst) / 1e9, totalSeconds,
            rows / readSeconds, rows / totalSeconds, vmHwmKib() / 1024.0));
    }

    /**
     * {@code reader.open} for every row, as the full refresh opens it: {@code open(table, fetchSize, 0)} (rowLimit 0 =
     * all rows) on current code, {@code open(table, fetchSize)} on older commits. Resolved reflectively so the
     * benchmark compiles against either.
     */
    private static RowCursor openAll(JdbcSourceReader reader, SourceTable table, int fetchSize) throws Exception {
        try {
            Method m = JdbcSourceReader.class.getMethod("open", SourceTable.class, int.class, long.class);
            return (RowCursor) invoke(m, reader, table, fetchSize, 0L);
        } catch (NoSuchMethodException e) {
            Method m = JdbcSourceReader.class.getMethod("open", SourceTable.class, int.class);
            return (RowCursor) invoke(m, reader, table, fetchSize);
        }
    }

    private static Object invoke(Method m, Object target, Object... args) throws Exception {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
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
