package io.dpone.serve;

import static io.dpone.cdc.mssql.H2CdcFixture.row;
import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.jmx;
import static io.dpone.serve.ServeFixture.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpone serve} ticks a live SQL Server CDC stream (H2 emulation) into the typed ClickHouse log: changes made
 * while it runs arrive, and the lag behind the source is in JMX ({@code MilliSecondsBehindSource}) and Prometheus
 * ({@code dpone_cdc_behind_source_seconds}): 0 once the stream has caught up; its {@code materialize} block keeps the
 * incremental serving view up to date after the ticks, with its own metrics.
 */
@io.dpone.testing.EngineTest
class ServeLiveCdcTest {
    static final String STREAM = "io.dpone:type=cdc,name=orders_live";

    @TempDir
    Path dir;

    @Test
    void aLiveStreamTicksInThePodAndReportsItsLagInMilliseconds() throws Exception {
        String db = TestEngines.newDatabase("serve_live");
        String url = TestEngines.newH2Url();
        try (H2CdcFixture fx = new H2CdcFixture(url); ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).insert(row(2, "new", "2.00", null, null)).commit();
            Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
            ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest,
                "{every: 1h, start_after: 1h}", """
                cdc_streams:
                  - name: orders_live
                    mode: live
                    schedule: {every: 200ms, start_after: 100ms}
                    source: mssql
                    sink: clickhouse
                    backend: mssql_cdc
                    pipeline_name: orders-live
                    source_schema: dbo
                    source_table: orders
                    target_dataset: %s.orders_cdc
                    unique_keys: [order_id]
                    source_connection_id: %s
                    sink_connection_id: %s
                    max_events: 1000
                    materialize:
                      target_dataset: %s.orders_current
                    verify: {every: PT0S, buckets: 4}
                """.formatted(db, TestEngines.SOURCE, TestEngines.CLICKHOUSE, db)));
            try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(url), Map.of())) {
                await(Duration.ofSeconds(30), "the first changes applied", () -> (Long) jmx(STREAM, "EventsApplied") >= 2);
                fx.txn().update(row(1, "new", "1.00", null, null), row(1, "paid", "1.00", null, null))
                    .insert(row(3, "new", "3.00", null, null)).commit();
                await(Duration.ofSeconds(30), "the changes made while serving", () -> (Long) jmx(STREAM,
                    "EventsApplied") >= 5);
                await(Duration.ofSeconds(10), "a caught-up tick", () -> (Long) jmx(STREAM,
                    "MilliSecondsBehindSource") == 0);
                assertEquals("passed", jmx(STREAM, "LastStatus"), () -> (String) jmx(STREAM, "LastBlockerCodes"));
                double behind = sample(get(config.httpPort(), ServeRuntime.METRICS).body(),
                    "dpone_cdc_behind_source_seconds", "stream=\"orders_live\"");
                assertEquals(0.0, behind, 0.0);
                assertEquals("5", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc")).get(0)
                    .get(0));
                // cdc_streams[].materialize: the serving view follows the ticks
                await(Duration.ofSeconds(30), "the serving view with the changes made while serving", () -> ch.query(
                    "SELECT count() FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
                        + " AND name = 'orders_current'").get(0).get(0).equals("1") && ch.query("SELECT order_id, "
                        + "status FROM " + ClickHouseSql.table(db, "orders_current") + " ORDER BY order_id").toString()
                        .equals("[[1, paid], [2, new], [3, new]]"));
                assertTrue((Long) jmx(STREAM, "Materializations") >= 1);
                assertEquals(0L, (Long) jmx(STREAM, "FailedMaterializations"));
                assertEquals("passed", jmx(STREAM, "LastMaterializeStatus"));
                String metrics = get(config.httpPort(), ServeRuntime.METRICS).body();
                assertTrue(sample(metrics, "dpone_cdc_materializations_total", "stream=\"orders_live\"") >= 1,
                    metrics);
                assertTrue(sample(metrics, "dpone_cdc_visible_behind_source_seconds", "stream=\"orders_live\"") >= 0,
                    metrics);
                // cdc_streams[].verify: the serving view is proven against the source after the ticks
                await(Duration.ofSeconds(30), "a passing verification", () -> "passed".equals(jmx(STREAM,
                    "LastVerifyVerdict")));
                assertEquals(0.0, sample(get(config.httpPort(), ServeRuntime.METRICS).body(),
                    "dpone_cdc_verify_mismatched_buckets", "stream=\"orders_live\""), 0.0);
                ch.execute("ALTER TABLE " + ClickHouseSql.table(db, "orders_current__dpone_cdc_versions")
                    + " DELETE WHERE order_id = 2 SETTINGS mutations_sync = 2");
                fx.txn().insert(row(4, "new", "4.00", null, null)).commit(); // a tick that applies, then a verify
                await(Duration.ofSeconds(30), "the out-of-band delete found", () -> "mismatched".equals(jmx(STREAM,
                    "LastVerifyVerdict")));
                assertEquals(1.0, sample(get(config.httpPort(), ServeRuntime.METRICS).body(),
                    "dpone_cdc_verify_mismatched_buckets", "stream=\"orders_live\""), 0.0);
                assertTrue((Long) jmx(STREAM, "FailedVerifications") >= 1);
                assertEquals("Nullable(Decimal(18, 2))", ch.query("SELECT type FROM system.columns WHERE database = "
                    + ClickHouseSql.literal(db) + " AND table = 'orders_cdc' AND name = 'amount'").get(0).get(0));
            }
        }
    }
}
