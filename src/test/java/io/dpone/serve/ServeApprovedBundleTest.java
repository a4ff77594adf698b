package io.dpone.serve;

import static io.dpone.cdc.mssql.H2MultiTableCdcFixture.row;
import static io.dpone.serve.ServeFixture.await;
import static io.dpone.serve.ServeFixture.jmx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.cdc.bundle.BundleFiles;
import io.dpone.cdc.bundle.CdcPromotionBundle;
import io.dpone.cdc.bundle.PromotionChecks;
import io.dpone.cdc.mssql.H2MultiTableCdcFixture;
import io.dpone.cdc.runtime.CdcMode;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.testing.Manifests;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code serve} stream of two tables with {@code approved_bundle}: it ticks while the stream matches the approved
 * promotion bundle, and once a column is added to one table's capture instance every tick is refused with
 * {@code cdc_bundle.digest_drift} before reading: nothing applied, the committed position unchanged.
 */
@io.dpone.testing.EngineTest
class ServeApprovedBundleTest {
    static final String STREAM = "io.dpone:type=cdc,name=shop_approved";

    @TempDir
    Path dir;

    @Test
    void aServeStreamRequiringItsApprovedBundleStopsTickingWhenOneTableDrifts() throws Exception {
        String db = TestEngines.newDatabase("serve_bundle");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, "customers", "orders");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(1, "o", "1.00")).commit();
            ConnectionContext context = TestEngines.context(url);
            Path bundleDir = approvedBundle(db, "shop-approved", context, dir.resolve("bundles/shop"));

            Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
            ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest,
                "{every: 1h, start_after: 1h}", """
                cdc_streams:
                  - name: shop_approved
                    mode: live
                    schedule: {every: 200ms, start_after: 100ms}
                    source: mssql
                    sink: clickhouse
                    backend: mssql_cdc
                    pipeline_name: shop-approved
                    tables:
                      - {source_schema: dbo, source_table: customers, target_dataset: %s.customers_cdc, unique_keys: [id]}
                      - {source_schema: dbo, source_table: orders, target_dataset: %s.orders_cdc, unique_keys: [id]}
                    source_connection_id: %s
                    sink_connection_id: %s
                    max_events: 1000
                    approved_bundle: %s
                """.formatted(db, db, TestEngines.SOURCE, TestEngines.CLICKHOUSE, bundleDir)));
            assertEquals(bundleDir, config.cdcStreams().get(0).approvedBundle());
            try (ServeRuntime serve = ServeRuntime.start(config, context, Map.of())) {
                await(Duration.ofSeconds(30), "the approved stream's first changes applied",
                    () -> (Long) jmx(STREAM, "EventsApplied") >= 2);
                assertEquals("passed", jmx(STREAM, "LastStatus"), () -> (String) jmx(STREAM, "LastBlockerCodes"));
                String committed = (String) jmx(STREAM, "CommittedPosition");

                // one table drifts (a column added to it and to its capture instance): the next tick is refused
                try (Statement st = fx.connection.createStatement()) {
                    st.execute("ALTER TABLE dbo.orders ADD channel NVARCHAR(20)");
                    st.execute("ALTER TABLE cdc.[dbo_orders_CT] ADD channel NVARCHAR(20)");
                }
                await(Duration.ofSeconds(30), "a tick refused for the drift",
                    () -> "cdc_bundle.digest_drift".equals(jmx(STREAM, "LastBlockerCodes")));
                // then a change in the table that did not drift: the whole stream stays stopped (a tick whose
                // check ran before the ALTER could still have read it: docs/cdc.md, hence the change only now)
                fx.txn().insert("customers", row(2, "bob", "2.00")).commit();
                long failed = (Long) jmx(STREAM, "FailedTicks");
                await(Duration.ofSeconds(30), "two more refused ticks", () -> (Long) jmx(STREAM, "FailedTicks")
                    >= failed + 2);
                assertEquals("failed", jmx(STREAM, "LastStatus"));
                assertEquals(2L, jmx(STREAM, "EventsApplied"), "nothing applied after the drift");
                assertEquals(committed, jmx(STREAM, "CommittedPosition"), "the offset did not move");
                assertEquals("1", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "orders_cdc")).get(0)
                    .get(0));
                assertEquals("1", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "customers_cdc")).get(0)
                    .get(0));
            }
        }
    }

    /**
     * A stream that materializes, with {@code approved_bundle}: each tick's bundle check also checks the serving
     * targets of its {@code materialize} block (checked, not pinned: the bundle was approved without them). After
     * the first materialization the targets are dpone's serving tables of the logs, and the stream keeps ticking;
     * a target that is someone else's table refuses the tick with {@code cdc_bundle.serving_target_not_owned}.
     */
    @Test
    void aMaterializingStreamKeepsTickingOverItsOwnTargetsAndIsRefusedOverSomeoneElses() throws Exception {
        String db = TestEngines.newDatabase("serve_bundle_served");
        String url = TestEngines.newH2Url();
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, "customers", "orders");
             ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(1, "o", "1.00")).commit();
            ConnectionContext context = TestEngines.context(url);
            Path bundleDir = approvedBundle(db, "shop-served", context, dir.resolve("bundles/served"));
            Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
            String stream = """
                cdc_streams:
                  - name: %s
                    mode: live
                    schedule: {every: 200ms, start_after: 100ms}
                    source: mssql
                    sink: clickhouse
                    backend: mssql_cdc
                    pipeline_name: shop-served
                    tables:
                      - {source_schema: dbo, source_table: customers, target_dataset: %s.customers_cdc, unique_keys: [id],
                         materialize_target: %s.customers}
                      - {source_schema: dbo, source_table: orders, target_dataset: %s.orders_cdc, unique_keys: [id],
                         materialize_target: %s.%s}
                    source_connection_id: %s
                    sink_connection_id: %s
                    max_events: 1000
                    approved_bundle: %s
                    materialize: {mode: rebuild, delete_mode: exclude_deleted}
                """;
            String served = "io.dpone:type=cdc,name=shop_served";
            ServeConfig config = ServeConfigLoader.load(ServeFixture.config(dir, manifest,
                "{every: 1h, start_after: 1h}", stream.formatted("shop_served", db, db, db, db, "orders",
                    TestEngines.SOURCE, TestEngines.CLICKHOUSE, bundleDir)));
            try (ServeRuntime serve = ServeRuntime.start(config, context, Map.of())) {
                await(Duration.ofSeconds(30), "the first materialization", () -> (Long) jmx(served,
                    "Materializations") >= 1);
                long ticks = (Long) jmx(served, "Ticks");
                await(Duration.ofSeconds(30), "two more ticks over the materialized targets",
                    () -> (Long) jmx(served, "Ticks") >= ticks + 2);
                assertEquals("passed", jmx(served, "LastStatus"), () -> (String) jmx(served, "LastBlockerCodes"));
                assertEquals(0L, jmx(served, "FailedTicks"));
            }

            ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "finance_orders") + " (id Int32) ENGINE = MergeTree "
                + "ORDER BY id");
            String foreign = "io.dpone:type=cdc,name=shop_foreign";
            ServeConfig other = ServeConfigLoader.load(ServeFixture.config(dir, manifest,
                "{every: 1h, start_after: 1h}", stream.formatted("shop_foreign", db, db, db, db, "finance_orders",
                    TestEngines.SOURCE, TestEngines.CLICKHOUSE, bundleDir)));
            try (ServeRuntime serve = ServeRuntime.start(other, context, Map.of())) {
                await(Duration.ofSeconds(30), "a tick refused over someone else's table",
                    () -> "cdc_bundle.serving_target_not_owned".equals(jmx(foreign, "LastBlockerCodes")));
                assertEquals("failed", jmx(foreign, "LastStatus"));
            }
            assertEquals("0", ch.query("SELECT count() FROM " + ClickHouseSql.table(db, "finance_orders")).get(0)
                .get(0), "someone else's table untouched");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @Test
    void approvedBundleIsForLiveStreamsOnly() throws Exception {
        Path manifest = Manifests.fullRefresh(dir, "sales", "unused_db", null);
        Path config = ServeFixture.config(dir, manifest, "{every: 1h, start_after: 1h}", """
            cdc_streams:
              - name: local_one
                schedule: {every: 1h}
                source: mssql
                sink: clickhouse
                backend: mssql_cdc
                pipeline_name: orders-cdc
                source_schema: dbo
                source_table: orders
                target_dataset: analytics.orders_cdc
                unique_keys: [order_id]
                events_json: events.json
                checkpoint_json: checkpoint.json
                output_dir: out
                approved_bundle: bundles/orders
            """);
        io.dpone.error.DponeException e = org.junit.jupiter.api.Assertions.assertThrows(
            io.dpone.error.DponeException.class, () -> ServeConfigLoader.load(config));
        assertTrue(e.blockers().stream().anyMatch(b -> b.subject().endsWith(".approved_bundle")),
            String.valueOf(e.blockers()));
    }

    /**
     * Builds, writes and approves the bundle of the two-table stream {@code pipeline} (customers and orders into
     * {@code db}'s logs) into {@code bundleDir}; the bundle must pass.
     */
    private static Path approvedBundle(String db, String pipeline, ConnectionContext context, Path bundleDir)
        throws Exception {
        CdcRunOptions options = CdcRunOptions.builder(CdcMode.live).systems("mssql", "clickhouse")
            .backend("mssql_cdc").pipelineName(pipeline)
            .tables(List.of(new CdcRunOptions.Table("dbo", "customers", db + ".customers_cdc", List.of("id")),
                new CdcRunOptions.Table("dbo", "orders", db + ".orders_cdc", List.of("id"))))
            .connections(TestEngines.SOURCE, TestEngines.CLICKHOUSE).maxEvents(1000).build();
        CdcPromotionBundle bundle = PromotionChecks.build(options, context,
            alias -> ConnectionReach.reach(context, alias, "test"));
        assertTrue(bundle.passed(), String.valueOf(bundle.blockers()));
        BundleFiles.write(bundleDir, bundle);
        BundleFiles.approve(bundleDir, bundle, "Jane Doe", Instant.now());
        return bundleDir;
    }
}
