package io.dpone.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.demo.DemoSalesGenerator;
import io.dpone.error.Blocker;
import io.dpone.manifest.ManifestLoader;
import io.dpone.camel.DponeCamel;
import io.dpone.route.FullRefreshRunner;
import io.dpone.route.ProgressListener;
import io.dpone.route.QualityGateProcessor;
import io.dpone.route.RouteProperties;
import io.dpone.route.RunReport;
import io.dpone.route.TransferRun;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.camel.Processor;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Plants one defect in the loaded staging table just before the gates run; the matching gate must fail, the run
 * must be red, and the target must keep its previous generation.
 */
@io.dpone.testing.EngineTest
class QualityGateDefectTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "float off by one ulp|ALTER TABLE %s UPDATE unit_price = reinterpretAsFloat64(bitXor(reinterpretAsUInt64(unit_price), 1)) WHERE sale_id = 7 AND unit_price IS NOT NULL|quality.typed_hash_mismatch",
        "float off by one ulp (pinned)|ALTER TABLE %s UPDATE unit_price = reinterpretAsFloat64(bitXor(reinterpretAsUInt64(unit_price), 1)) WHERE sale_id = 7 AND unit_price IS NOT NULL|quality.fidelity_mismatch",
        "rounded decimal (pinned)|ALTER TABLE %s UPDATE amount = round(amount, 2) WHERE sale_id = (SELECT min(sale_id) FROM %s WHERE amount != round(amount, 2))|quality.fidelity_mismatch",
        "truncated emoji (pinned)|ALTER TABLE %s UPDATE customer_name = substring(customer_name, 1, length(customer_name) - 1) WHERE sale_id = (SELECT min(sale_id) FROM %s WHERE customer_name LIKE '%%😀%%')|quality.fidelity_mismatch",
        "new distinct status|ALTER TABLE %s UPDATE status = 'never_seen' WHERE sale_id = 13|quality.distinct_count_mismatch",
        "one extra NULL|ALTER TABLE %s UPDATE note = NULL WHERE sale_id = (SELECT min(sale_id) FROM %s WHERE note IS NOT NULL)|quality.null_count_mismatch",
        "one dropped row|ALTER TABLE %s DELETE WHERE sale_id = 9|quality.row_count_mismatch",
        "truncated emoji|ALTER TABLE %s UPDATE customer_name = substring(customer_name, 1, length(customer_name) - 1) WHERE sale_id = (SELECT min(sale_id) FROM %s WHERE customer_name LIKE '%%😀%%')|quality.typed_hash_mismatch",
        "rounded decimal|ALTER TABLE %s UPDATE amount = round(amount, 2) WHERE sale_id = (SELECT min(sale_id) FROM %s WHERE amount != round(amount, 2))|quality.typed_hash_mismatch",
        "one changed value|ALTER TABLE %s UPDATE status = 'tampered' WHERE sale_id = 11|quality.typed_hash_mismatch",
        "metadata emptied|ALTER TABLE %s UPDATE __dpone__load_id = '' WHERE sale_id = 12|quality.metadata_columns_missing"})
    void plantedDefectFailsItsGateAndLeavesTheTargetAlone(String defect, String tamperSql, String code) throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("gates");
        try (Connection src = DriverManager.getConnection(h2, "sa", "");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            DemoSalesGenerator.seed(src, 1_000, 5);
            Path file = Manifests.fullRefresh(dir, "sales", db, "order_by: [sale_id]");
            java.nio.file.Files.writeString(file, java.nio.file.Files.readString(file)
                + "quality:\n  distinct_columns: [status, sale_id]\n");
            var manifest = ManifestLoader.load(file);
            var ctx = TestEngines.context(h2);
            try (DponeCamel camel = DponeCamel.start(null, false)) {
                assertTrue(new FullRefreshRunner(camel, ctx, dir).run(manifest, "good", ProgressListener.NONE).passed());
            }
            QualityGateProcessor gates = new QualityGateProcessor();
            String target = ClickHouseSql.table(db, "sales");
            AtomicReference<String> targetMergeDuringRun = new AtomicReference<>();
            Processor tamperThenGate = exchange -> {
                TransferRun run = exchange.getProperty(RouteProperties.RUN, TransferRun.class);
                // the embedded target being replaced does not merge during the run (ReplacedGenerationMerges)
                try {
                    run.clickhouse().execute("OPTIMIZE TABLE " + target + " FINAL");
                    targetMergeDuringRun.set("merged");
                } catch (ClickHouseQueryException e) {
                    targetMergeDuringRun.set(e.getMessage().contains("ABORTED") ? "paused" : e.getMessage());
                }
                String staging = ClickHouseSql.table(db, run.stagingTable());
                // merges (and so mutations) are stopped on the staging table while it loads: the tamperer lets them
                // run first. The mutation renames the parts it rewrites, so the gates read the whole table again.
                run.clickhouse().execute("SYSTEM START MERGES " + staging);
                run.clickhouse().execute(tamperSql.replace("%s", staging).replace("%%", "%")
                    + " SETTINGS mutations_sync = 2");
                gates.process(exchange);
            };
            RunReport bad;
            try (DponeCamel camel = DponeCamel.start(null, false, Map.of("qualityGates", tamperThenGate))) {
                bad = new FullRefreshRunner(camel, ctx, dir).run(manifest, "bad", ProgressListener.NONE);
            }
            assertFalse(bad.passed(), defect);
            assertTrue(bad.blockers().stream().map(Blocker::code).toList().contains(code),
                () -> defect + ": " + bad.blockers());
            assertEquals(List.of(List.of("1000", "good")), ch.query("SELECT count(), any(__dpone__run_id) FROM "
                + ClickHouseSql.table(db, "sales")));
            assertEquals(List.of(List.of("sales")), ch.query("SELECT name FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db)));
            assertEquals("paused", targetMergeDuringRun.get(), defect);
            // the failed run gave the target its merges back
            ch.execute("INSERT INTO " + target + " SELECT * FROM " + target + " WHERE sale_id = 1");
            ch.execute("OPTIMIZE TABLE " + target + " FINAL");
            assertEquals(List.of(List.of("1")), ch.query("SELECT count() FROM system.parts WHERE database = "
                + ClickHouseSql.literal(db) + " AND table = 'sales' AND active"));
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
