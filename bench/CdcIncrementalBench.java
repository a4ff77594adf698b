import io.dpone.cdc.CdcApplyBatch;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.EventIdentityIdempotency;
import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.clickhouse.CdcMaterializer.Compact;
import io.dpone.cdc.clickhouse.CdcMaterializer.DeleteMode;
import io.dpone.cdc.clickhouse.CdcMaterializer.Incremental;
import io.dpone.cdc.clickhouse.CdcMaterializer.Mode;
import io.dpone.cdc.clickhouse.ClickHouseCdcSinkApplier;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.SqlServerTypeNames;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark, not a test: incremental materialization ({@code --mode incremental}) against the rebuild on the
 * embedded engine. Per table size: a typed CDC log of SIZE inserts (one per key, written with SQL in 1M-row parts
 * after one real sink batch created the log), the first incremental run (builds the versioned table), then ticks of
 * 1k, 10k and 100k changes (80% updates of random keys, 10% deletes, 10% new keys; one transaction per tick), each
 * applied incrementally (REPEATS times per tick size, median printed), then one rebuild of the same log; then the
 * cost of reading the served view (a full read of every row and a point lookup) with FINAL and with argMax, and one compaction
 * ({@code OPTIMIZE ... FINAL}). Prints figures, asserts nothing.
 *
 * <p>Run through {@code bench/cdc-incremental.sh [SIZES=1000000,10000000] [TICKS=1000,10000,100000] [REPEATS=3]}.
 */
public final class CdcIncrementalBench {
    static final StreamIdentity STREAM = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders",
        "analytics.orders", List.of("order_id"));

    public static void main(String[] args) throws Exception {
        long[] sizes = Arrays.stream((args.length > 0 ? args[0] : "1000000,10000000").split(","))
            .mapToLong(Long::parseLong).toArray();
        long[] ticks = Arrays.stream((args.length > 1 ? args[1] : "1000,10000,100000").split(","))
            .mapToLong(Long::parseLong).toArray();
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            for (long size : sizes) {
                run(ch, size, ticks, repeats);
            }
        }
    }

    static SourceColumn column(String name, String type, boolean nullable) {
        var t = SqlServerTypeNames.parse(type).orElseThrow();
        return new SourceColumn(name, SqlServerTypeNames.name(t), nullable, t);
    }

    static long position = 0x100;

    static void run(ClickHouseEndpoint ch, long size, long[] ticks, int repeats) throws Exception {
        String db = TestEngines.newDatabase("incr_bench");
        String log = ClickHouseSql.table(db, "orders_cdc");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("order_id", 0);
        data.put("status", "seed");
        data.put("amount", new java.math.BigDecimal("1.00"));
        var receipt = new ClickHouseCdcSinkApplier(ch, db, "orders_cdc", new EventIdentityIdempotency(),
            Path.of(System.getProperty("java.io.tmpdir")).resolve("incr-bench-spool")).apply(STREAM,
                new CdcApplyBatch("seed", "bench", List.of(new CdcEvent(CdcOperation.insert, "0x1", 0, "dbo",
                    "orders", data, Map.of())), List.of(column("order_id", "int", false),
                    column("status", "nvarchar(20)", false), column("amount", "decimal(10,2)", true))));
        if (!receipt.passed()) {
            throw new IllegalStateException(receipt.message());
        }
        long t0 = System.nanoTime();
        for (long from = 0; from < size; from += 1_000_000) {
            long n = Math.min(1_000_000, size - from);
            ch.execute(changes(log, "number + " + (from + 1), "'new'", "'insert'", n, position++));
        }
        System.out.printf("%n== %,d keys: log seeded in %.1f s%n", size, (System.nanoTime() - t0) / 1e9);
        Incremental inc = new Incremental(1_000_000, Duration.ofDays(7), Compact.never, 32, 0.25, "auto");
        Map<String, Object> first = materialize(ch, db, "orders_incr", Mode.incremental, inc);
        System.out.printf("first incremental run (builds the versioned table): %.2f s%n", secs(first));
        long next = size + 1;
        for (long tick : ticks) {
            List<Double> runs = new ArrayList<>();
            Map<String, Object> last = null;
            for (int r = 0; r < repeats; r++) {
                tick(ch, log, size, tick, next);
                next += tick;
                last = materialize(ch, db, "orders_incr", Mode.incremental, inc);
                runs.add(secs(last));
            }
            List<Double> sorted = runs.stream().sorted().toList();
            System.out.printf("tick %,7d changes: incremental apply median %.3f s (runs %s), parts after %s%n", tick,
                sorted.get(sorted.size() / 2), runs.stream().map(d -> String.format("%.3f", d)).toList(),
                last.get("parts"));
        }
        Map<String, Object> rebuild = materialize(ch, db, "orders_rebuild", Mode.rebuild, inc);
        System.out.printf("rebuild of the same log (%,d log rows): %.2f s%n", (Long) rebuild.get("rows_in"),
            secs(rebuild));
        // reading the served view: FINAL (the auto choice for exclude_deleted) against argMax
        String target = ClickHouseSql.table(db, "orders_incr");
        // argMax reads are slow (about 13 s per 1M rows here): one un-merged read of it above 1M keys
        for (String view : size > 1_000_000 ? List.of("final", "argmax", "final") : List.of("final", "argmax", "final",
            "argmax")) {
            materialize(ch, db, "orders_incr", Mode.incremental, new Incremental(1_000_000, Duration.ofDays(7),
                Compact.never, 32, 0.25, view));
            long a = System.nanoTime();
            String count = ch.query("SELECT count(), sum(toFloat64(amount)), max(length(status)) FROM " + target)
                .get(0).get(0);
            long b = System.nanoTime();
            ch.query("SELECT * FROM " + target + " WHERE order_id = " + (size / 2));
            long c = System.nanoTime();
            System.out.printf("view %-6s (un-merged): full read %.3f s (%s rows), point lookup %.3f s%n", view,
                (b - a) / 1e9, count, (c - b) / 1e9);
        }
        String rebuilt = ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_rebuild")).get(0).get(0);
        System.out.printf("rebuild's table holds %s rows%n", rebuilt);
        Map<String, Object> compacted = materialize(ch, db, "orders_incr", Mode.incremental,
            new Incremental(1_000_000, Duration.ofDays(7), Compact.always, 32, 0.25, "auto"));
        System.out.printf("compaction (OPTIMIZE FINAL + purge scan): %s, parts after %s%n",
            compacted.get("compaction"), compacted.get("parts"));
        for (String view : size > 1_000_000 ? List.of("final") : List.of("final", "argmax")) {
            materialize(ch, db, "orders_incr", Mode.incremental, new Incremental(1_000_000, Duration.ofDays(7),
                Compact.never, 32, 0.25, view));
            long a = System.nanoTime();
            ch.query("SELECT count(), sum(toFloat64(amount)), max(length(status)) FROM " + target);
            long b = System.nanoTime();
            System.out.printf("view %-6s (merged):    full read %.3f s%n", view, (b - a) / 1e9);
        }
        ch.execute("DROP DATABASE " + ClickHouseSql.id(db));
    }

    /** One transaction of {@code n} changes at a new position: 80% updates, 10% deletes, 10% new keys. */
    static void tick(ClickHouseEndpoint ch, String log, long size, long n, long next) {
        String key = "if(number % 10 = 1, " + next + " + number, (cityHash64(number, " + next + ") % " + size
            + ") + 1)";
        String op = "multiIf(number % 10 = 0, 'delete', number % 10 = 1, 'insert', 'update')";
        ch.execute(changes(log, key, "concat('s', toString(number))", op, n, position++));
    }

    static String changes(String log, String key, String status, String op, long n, long pos) {
        return "INSERT INTO " + log + " (order_id, status, amount, dpone_cdc_unique_key_hash, dpone_cdc_event_id, "
            + "dpone_cdc_operation, dpone_cdc_position, dpone_cdc_sequence, dpone_cdc_version, dpone_cdc_commit_time, "
            + "dpone_cdc_run_id, dpone_cdc_batch_id) SELECT k, " + status + ", toDecimal64(number % 100000, 2), "
            + "hex(cityHash64(k)), concat('" + pos + ":', toString(number)), " + op + ", '0x" + Long.toHexString(pos)
            + "', number, bitShiftLeft(toUInt256(" + pos + "), 67) + toUInt256(number) * 8 + 2, now64(3), 'bench', "
            + "'b" + pos + "' FROM (SELECT " + key + " AS k, number FROM numbers(" + n + ")) SETTINGS async_insert = 0";
    }

    static Map<String, Object> materialize(ClickHouseEndpoint ch, String db, String target, Mode mode,
                                           Incremental inc) {
        long t0 = System.nanoTime();
        Map<String, Object> r = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
            db + "." + target, List.of("order_id"), DeleteMode.exclude_deleted, mode, inc), null);
        if (!Boolean.TRUE.equals(r.get("passed"))) {
            throw new IllegalStateException(String.valueOf(r.get("blockers")));
        }
        r.put("bench_seconds", (System.nanoTime() - t0) / 1e9);
        return r;
    }

    static double secs(Map<String, Object> r) {
        return (Double) r.get("bench_seconds");
    }
}
