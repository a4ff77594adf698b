import io.dpone.cdc.StreamIdentity;
import io.dpone.cdc.clickhouse.CdcMaterializer;
import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.cdc.runtime.CdcRuntime;
import io.dpone.cdc.runtime.CdcRuntimeRunReport;
import io.dpone.cdc.runtime.CdcTickRunner;
import io.dpone.cdc.runtime.LiveCdcRuntime;
import io.dpone.cdc.verify.CdcVerifier;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.publication.artifact.ArtifactFixtures;
import io.dpone.source.JdbcSourceReader;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Benchmark, not a test: {@code cdc-verify} time per table size on the embedded default (H2 SQL Server CDC
 * emulation as the source, chDB as the sink). Per size: SIZE rows inserted at the source, one live tick into the
 * typed log, an incremental materialization, then REPEATS verifications of the correct stream (median: total, source
 * scan, serving scan), one with a planted out-of-band delete (scan + confirm) and its repair. Prints figures,
 * asserts nothing.
 *
 * <p>Run through {@code bench/cdc-verify.sh [SIZES=1000000] [BUCKETS=256] [REPEATS=3]}.
 */
public final class CdcVerifyBench {
    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "1000000").split(",")).mapToInt(Integer::parseInt)
            .toArray();
        int buckets = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            for (int size : sizes) {
                run(ch, size, buckets, repeats);
            }
        }
    }

    static void run(ClickHouseEndpoint ch, int size, int buckets, int repeats) throws Exception {
        String url = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("verifybench");
        Path work = Path.of(System.getProperty("java.io.tmpdir")).resolve("verify-" + db);
        Random r = new Random(1);
        try (H2CdcFixture fx = new H2CdcFixture(url); JdbcSourceReader reader = ArtifactFixtures.reader(url)) {
            long t0 = System.nanoTime();
            for (int from = 1; from <= size; from += 50_000) {
                H2CdcFixture.Txn txn = fx.txn();
                for (int id = from; id < Math.min(size + 1, from + 50_000); id++) {
                    txn.insert(H2CdcFixture.row(id, r.nextBoolean() ? "new" : "paid", (r.nextInt(2_000_000) - 1_000_000)
                        + "." + r.nextInt(10) + r.nextInt(10), r.nextInt(3) == 0 ? null : "n" + r.nextInt(1000),
                        "2024-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(9) + "T0" + r.nextInt(9) + ":30:00.1234567"));
                }
                txn.commit();
            }
            long t1 = System.nanoTime();
            CdcRunOptions o = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
                .backend("mssql_cdc").pipelineName("verify-bench").sourceTable("dbo", "orders")
                .targetDataset(db + ".orders_cdc").uniqueKeys(List.of("order_id"))
                .connections("mssql_test", "clickhouse_test").maxEvents(1_000_000).build();
            while (true) {
                CdcRuntimeRunReport t = CdcTickRunner.run(LiveCdcRuntime.tick(o, CdcRuntime.newRunId(), fx.connection,
                    ch, work.resolve("spool")));
                if (!t.passed()) {
                    throw new IllegalStateException(String.valueOf(t.blockers()));
                }
                if (t.counts().read() == 0) {
                    break;
                }
            }
            long t2 = System.nanoTime();
            Map<String, Object> m = new CdcMaterializer(ch).materialize(new CdcMaterializer.Options(db + ".orders_cdc",
                db + ".orders_current", List.of("order_id"), CdcMaterializer.DeleteMode.exclude_deleted,
                CdcMaterializer.Mode.incremental, new CdcMaterializer.Incremental(1_000_000, Duration.ofDays(7),
                    CdcMaterializer.Compact.auto, 32, 0.25, "auto")), null);
            if (!Boolean.TRUE.equals(m.get("passed"))) {
                throw new IllegalStateException(String.valueOf(m.get("blockers")));
            }
            long t3 = System.nanoTime();
            System.out.printf("size %,d: seed %.1f s, tick(s) %.1f s, incremental materialization %.1f s%n", size,
                (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9);
            StreamIdentity stream = new StreamIdentity("verify-bench", "mssql_cdc", "dbo", "orders", db + ".orders_cdc",
                List.of("order_id"));
            CdcVerifier verifier = new CdcVerifier(ch, reader, fx.connection, work.resolve("spool"));
            long[] total = new long[repeats];
            long[] source = new long[repeats];
            long[] serving = new long[repeats];
            for (int i = 0; i < repeats; i++) {
                Map<String, Object> v = verifier.verify(new CdcVerifier.Options(stream, db + ".orders_current", buckets,
                    false), null);
                if (!Boolean.TRUE.equals(v.get("passed"))) {
                    throw new IllegalStateException(String.valueOf(v.get("blockers")));
                }
                Map<?, ?> metrics = (Map<?, ?>) v.get("metrics");
                total[i] = ((Number) metrics.get("duration_ms")).longValue();
                source[i] = ((Number) metrics.get("source_scan_ms")).longValue();
                serving[i] = ((Number) metrics.get("serving_scan_ms")).longValue();
            }
            Arrays.sort(total);
            Arrays.sort(source);
            Arrays.sort(serving);
            double perMillion = 1_000_000.0 / size;
            System.out.printf("  verify (passing, %d buckets, median of %d): %.2f s = %.2f s per 1M rows "
                    + "(source scan %.2f s, serving scan %.2f s)%n", buckets, repeats, total[repeats / 2] / 1e3,
                total[repeats / 2] / 1e3 * perMillion, source[repeats / 2] / 1e3, serving[repeats / 2] / 1e3);
            ch.execute("ALTER TABLE " + ClickHouseSql.table(db, "orders_current__dpone_cdc_versions")
                + " DELETE WHERE order_id = " + (size / 2) + " SETTINGS mutations_sync = 2");
            Map<String, Object> found = verifier.verify(new CdcVerifier.Options(stream, db + ".orders_current", buckets,
                false), null);
            Map<?, ?> fm = (Map<?, ?>) found.get("metrics");
            System.out.printf("  verify with one planted delete: %.2f s (confirm pass %.2f s), verdict %s, %d bucket(s)%n",
                ((Number) fm.get("duration_ms")).longValue() / 1e3, ((Number) fm.get("confirm_ms")).longValue() / 1e3,
                found.get("verdict"), CdcVerifier.mismatchedBuckets(found));
            Map<String, Object> repaired = verifier.verify(new CdcVerifier.Options(stream, db + ".orders_current",
                buckets, true), null);
            Map<?, ?> rm = (Map<?, ?>) repaired.get("metrics");
            System.out.printf("  verify --repair: %.2f s (repair %.2f s), verdict %s%n",
                ((Number) rm.get("duration_ms")).longValue() / 1e3, ((Number) rm.get("repair_ms")).longValue() / 1e3,
                repaired.get("verdict"));
        }
    }
}
