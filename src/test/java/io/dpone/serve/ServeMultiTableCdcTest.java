package io.dpone.serve;

import static io.dpone.cdc.mssql.H2MultiTableCdcFixture.row;
import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.get;
import static io.dpone.serve.ServeFixture.jmx;
import static io.dpone.serve.ServeFixture.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.mssql.H2MultiTableCdcFixture;
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
 * {@code dpone serve} ticks a live stream of two tables ({@code cdc_streams[].tables}, H2 CDC emulation) into their
 * two typed ClickHouse logs; each table's figures are in JMX ({@code Tables}) and Prometheus
 * ({@code dpone_cdc_table_*{stream, table}}).
 */
@io.dpone.testing.EngineTest
class ServeMultiTableCdcTest {
    static final String STREAM = "io.dpone:type=cdc,name=shop_live";

    @TempDir
    Path dir;

    @Test
    void aMultiTableStreamTicksInThePodAndReportsEachTable() throws Exception {
        String db = TestEngines.newDatabase("serve_multi");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, "customers", "orders");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(1, "o", "1.00")).commit();
            Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
            ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest,
                "{every: 1h, start_after: 1h}", """
                cdc_streams:
                  - name: shop_live
                    mode: live
                    schedule: {every: 200ms, start_after: 100ms}
                    source: mssql
                    sink: clickhouse
                    backend: mssql_cdc
                    pipeline_name: shop-live
                    tables:
                      - {source_schema: dbo, source_table: customers, target_dataset: %s.customers_cdc, unique_keys: [id]}
                      - {source_schema: dbo, source_table: orders, target_dataset: %s.orders_cdc, unique_keys: [id]}
                    source_connection_id: %s
                    sink_connection_id: %s
                    max_events: 1000
                """.formatted(db, db, TestEngines.SOURCE, TestEngines.CLICKHOUSE)));
            try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(url), Map.of())) {
                await(Duration.ofSeconds(30), "the first changes applied", () -> (Long) jmx(STREAM, "EventsApplied") >= 2);
                fx.txn().insert("orders", row(2, "o", "2.00")).insert("orders", row(3, "o", "3.00"))
                    .update("customers", row(1, "ann", "1.00"), row(1, "ann", "9.00")).commit();
                await(Duration.ofSeconds(30), "the changes made while serving", () -> (Long) jmx(STREAM,
                    "EventsApplied") >= 6);
                assertEquals("passed", jmx(STREAM, "LastStatus"), () -> (String) jmx(STREAM, "LastBlockerCodes"));
                String tables = (String) jmx(STREAM, "Tables");
                assertTrue(tables.startsWith("dbo.customers read=3 applied=3 ") && tables.contains(
                    "\ndbo.orders read=3 applied=3 "), tables);
                String metrics = get(config.httpPort(), ServeRuntime.METRICS).body();
                assertEquals(3.0, sample(metrics, "dpone_cdc_table_events_applied_total",
                    "stream=\"shop_live\",table=\"dbo.orders\""), 0.0, metrics);
                assertEquals("3", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "customers_cdc")).get(0)
                    .get(0));
                assertEquals("3", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc")).get(0)
                    .get(0));
            }
        }
    }
}
