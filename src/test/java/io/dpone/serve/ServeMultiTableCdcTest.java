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
import java.util.List;
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

    @Test
    void aMultiTableStreamMaterializesEachTableIntoItsOwnServingTarget() throws Exception {
        String db = TestEngines.newDatabase("serve_multi_mat");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, "customers", "orders");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("customers", row(2, "bob", "2.00")).commit();
            fx.txn().insert("orders", row(10, "o", "10.00")).commit();
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
                      - {source_schema: dbo, source_table: customers, target_dataset: %s.customers_cdc,
                         unique_keys: [id], materialize_target: %s.customers_current}
                      - {source_schema: dbo, source_table: orders, target_dataset: %s.orders_cdc, unique_keys: [id],
                         materialize_target: %s.orders_current}
                    source_connection_id: %s
                    sink_connection_id: %s
                    max_events: 1000
                    materialize: {delete_mode: exclude_deleted}
                """.formatted(db, db, db, db, TestEngines.SOURCE, TestEngines.CLICKHOUSE)));
            try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(url), Map.of())) {
                await(Duration.ofSeconds(30), "both serving targets equal their sources", () -> servingEqualsSource(fx,
                    ch, db, "customers") && servingEqualsSource(fx, ch, db, "orders"));
                assertEquals(List.of(List.of("1", "ann", "1.00"), List.of("2", "bob", "2.00")), serving(ch, db,
                    "customers"));
                long before = (Long) jmx(STREAM, "Materializations");
                // a transaction spanning both tables: an update and a delete of customers, an insert into orders
                fx.txn().update("customers", row(1, "ann", "1.00"), row(1, "ann", "9.00"))
                    .delete("customers", row(2, "bob", "2.00")).insert("orders", row(11, "o", "11.00")).commit();
                fx.txn().update("orders", row(10, "o", "10.00"), row(10, "paid", "10.00")).commit(); // orders only
                await(Duration.ofSeconds(30), "the serving targets with the changes made while serving", () ->
                    serving(ch, db, "customers").equals(List.of(List.of("1", "ann", "9.00")))
                        && servingEqualsSource(fx, ch, db, "orders") && serving(ch, db, "orders").size() == 2);
                // a table's figures are counted just after its serving target is visible, so wait for them: the
                // changes made while serving materialize each table once more (the stream counts every table's)
                await(Duration.ofSeconds(30), "both tables' materializations counted", () -> (Long) jmx(STREAM,
                    "Materializations") >= before + 2 && tableMaterializations(config, "dbo.customers") >= 2
                    && tableMaterializations(config, "dbo.orders") >= 2);
                assertTrue(servingEqualsSource(fx, ch, db, "customers"));
                assertEquals(List.of(List.of("10", "paid", "10.00"), List.of("11", "o", "11.00")), serving(ch, db,
                    "orders"));
                assertEquals("passed", jmx(STREAM, "LastStatus"), () -> (String) jmx(STREAM, "LastBlockerCodes"));
                assertEquals("passed", jmx(STREAM, "LastMaterializeStatus"));
                assertEquals(0L, (Long) jmx(STREAM, "FailedMaterializations"));
                assertEquals("", jmx(STREAM, "LastMaterializeFailedTables"));
                String metrics = get(config.httpPort(), ServeRuntime.METRICS).body();
                for (String table : List.of("dbo.customers", "dbo.orders")) {
                    assertEquals(0.0, sample(metrics, "dpone_cdc_table_failed_materializations_total",
                        "stream=\"shop_live\",table=\"" + table + "\""), 0.0, metrics);
                }
                // a table whose serving target cannot be written fails by name, the other table still materializes
                ch.execute("DROP TABLE IF EXISTS " + ClickHouseSql.table(db, "orders_current__dpone_cdc_versions"));
                ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "orders_current__dpone_cdc_versions")
                    + " (x UInt8) ENGINE = MergeTree ORDER BY x");
                fx.txn().insert("orders", row(12, "o", "12.00")).insert("customers", row(3, "cy", "3.00")).commit();
                await(Duration.ofSeconds(30), "the orders materialization failing by name", () -> "dbo.orders".equals(
                    jmx(STREAM, "LastMaterializeFailedTables")));
                await(Duration.ofSeconds(30), "customers still materialized", () -> servingEqualsSource(fx, ch, db,
                    "customers"));
                assertTrue((Long) jmx(STREAM, "FailedMaterializations") >= 1);
                assertEquals(0.0, sample(get(config.httpPort(), ServeRuntime.METRICS).body(),
                    "dpone_cdc_table_failed_materializations_total", "stream=\"shop_live\",table=\"dbo.customers\""),
                    0.0);
            }
        }
    }

    /** {@code dpone_cdc_table_materializations_total} of one table of the stream, read from the pod's metrics. */
    static double tableMaterializations(ServeConfig config, String table) {
        try {
            return sample(get(config.httpPort(), ServeRuntime.METRICS).body(), "dpone_cdc_table_materializations_total",
                "stream=\"shop_live\",table=\"" + table + "\"");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aStreamChoosingItsTablesByPatternsTakesATableEnabledWhileThePodRunsWithItsOwnSnapshot() throws Exception {
        String db = TestEngines.newDatabase("serve_multi_pat");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, "customers", "orders", "orders_tmp");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(10, "o", "10.00"))
                .insert("orders_tmp", row(1, "t", "1.00")).commit();
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
                    include: ["dbo.*"]
                    exclude: ["*_tmp"]
                    target_template: "%s.{table}_cdc"
                    source_connection_id: %s
                    sink_connection_id: %s
                    max_events: 1000
                    materialize: {delete_mode: exclude_deleted, target_template: "%s.{table}_current"}
                """.formatted(db, TestEngines.SOURCE, TestEngines.CLICKHOUSE, db)));
            try (ServeRuntime serve = ServeRuntime.start(config, TestEngines.context(url), Map.of())) {
                await(Duration.ofSeconds(30), "both matched tables served", () -> servingEqualsSource(fx, ch, db,
                    "customers") && servingEqualsSource(fx, ch, db, "orders"));
                // a table with rows before CDC, enabled while the pod runs, then changed
                fx.createTable("returns", true, row(1, "r1", "1.00"), row(2, "r2", "2.00"), row(3, "r3", "3.00"));
                fx.enableCdc("returns");
                fx.txn().update("returns", row(2, "r2", "2.00"), row(2, "r2 paid", "2.50"))
                    .insert("customers", row(2, "bob", "2.00")).commit();
                await(Duration.ofSeconds(30), "the added table served", () -> servingEqualsSource(fx, ch, db,
                    "returns") && servingEqualsSource(fx, ch, db, "customers"));
                // the update may have been in the snapshot (a tick between the commit and the pod's next resolution):
                // a change after it streams like any other table's
                fx.txn().update("returns", row(3, "r3", "3.00"), row(3, "r3 paid", "3.50")).commit();
                await(Duration.ofSeconds(30), "the added table's later change served", () -> servingEqualsSource(fx,
                    ch, db, "returns"));
                assertEquals("passed", jmx(STREAM, "LastStatus"), () -> (String) jmx(STREAM, "LastBlockerCodes"));
                String tables = (String) jmx(STREAM, "Tables");
                assertTrue(tables.contains("\ndbo.returns read=") && tables.contains(" snapshot_rows=3"), tables);
                assertTrue(!tables.contains("orders_tmp"), tables);
                String metrics = get(config.httpPort(), ServeRuntime.METRICS).body();
                assertEquals(3.0, sample(metrics, "dpone_cdc_table_snapshot_rows_total",
                    "stream=\"shop_live\",table=\"dbo.returns\""), 0.0, metrics);
                assertTrue(sample(metrics, "dpone_cdc_table_events_applied_total",
                    "stream=\"shop_live\",table=\"dbo.returns\"") >= 2.0, tables);
                // counted just after the serving target is visible: wait for it
                await(Duration.ofSeconds(30), "the added table's materialization counted", () ->
                    tableMaterializations(config, "dbo.returns") >= 1);
            }
        }
    }

    /** The serving target's rows (id, label, amount), by id. */
    static List<List<String>> serving(ClickHouseEndpoint ch, String db, String table) {
        return ch.query("SELECT id, label, amount FROM " + ClickHouseSql.table(db, table + "_current")
            + " ORDER BY id SETTINGS output_format_decimal_trailing_zeros = 1");
    }

    /** True when the serving target exists and holds exactly the source table's rows. */
    static boolean servingEqualsSource(H2MultiTableCdcFixture fx, ClickHouseEndpoint ch, String db, String table) {
        if (!"1".equals(ch.query("SELECT count() FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
            + " AND name = " + ClickHouseSql.literal(table + "_current")).get(0).get(0))) {
            return false;
        }
        List<List<String>> source = new java.util.ArrayList<>();
        try (java.sql.Statement st = fx.connection.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT id, label, amount FROM dbo." + table + " ORDER BY id")) {
            while (rs.next()) {
                source.add(List.of(String.valueOf(rs.getInt(1)), rs.getString(2), rs.getBigDecimal(3).toPlainString()));
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return !source.isEmpty() && source.equals(serving(ch, db, table));
    }
}
