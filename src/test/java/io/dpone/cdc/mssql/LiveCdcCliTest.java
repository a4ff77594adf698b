package io.dpone.cdc.mssql;

import static io.dpone.cdc.mssql.H2CdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spec's live command, end to end through the CLI, for both backends (H2 emulations, embedded ClickHouse). */
@io.dpone.testing.EngineTest
class LiveCdcCliTest {
    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        io.dpone.testing.LiveCdcContext.clear();
    }

    private static CliRun live(String backend, String dataset, String... more) {
        String[] args = {"ops", "cdc-runtime-run", "--mode", "live",
            "--source", "mssql",
            "--sink", "clickhouse",
            "--backend", backend,
            "--pipeline-name", "orders-cdc",
            "--source-schema", "dbo",
            "--source-table", "orders",
            "--target-dataset", dataset,
            "--unique-key", "order_id",
            "--source-connection-id", "mssql-prod",
            "--sink-connection-id", "clickhouse-prod",
            "--credentials-source", "env",
            "--format", "json"};
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return CliRun.of(all);
    }

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    private static void assertTicks(String backend, String db) throws Exception {
        CliRun first = live(backend, db + ".orders_cdc");
        assertEquals(0, first.exitCode(), first.stderr());
        JsonNode r = json(first.stdout());
        assertEquals("dpone.cdc_runtime_run.v1", r.path("schema").asText());
        assertEquals("live", r.path("mode").asText());
        assertTrue(r.path("passed").asBoolean() && r.path("committed").asBoolean());
        long applied = r.path("counts").path("applied").asLong();
        assertTrue(applied > 0);
        CliRun again = live(backend, db + ".orders_cdc");
        assertEquals(0, again.exitCode(), again.stderr());
        JsonNode second = json(again.stdout());
        assertEquals(0, second.path("counts").path("read").asLong());
        assertFalse(second.path("committed").asBoolean(), "no new changes: a green no-op");
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            assertEquals(String.valueOf(applied), ch.query("SELECT count() FROM "
                + ClickHouseSql.table(db, "orders_cdc")).get(0).get(0));
            assertEquals(r.path("offset_after").path("position").asText(), ch.query("SELECT argMax(token, "
                + "saved_version) FROM " + ClickHouseSql.table(db, "dpone_cdc_offsets")).get(0).get(0));
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @Test
    void sqlServerCdc() throws Exception {
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).insert(row(2, "new", "2.00", null, null)).commit();
            fx.txn().update(row(1, "new", "1.00", null, null), row(1, "paid", "1.00", null, null)).commit();
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            assertTicks("mssql_cdc", TestEngines.newDatabase("cli_cdc"));
        }
    }

    @Test
    void changeTracking() throws Exception {
        try (H2ChangeTrackingFixture fx = new H2ChangeTrackingFixture(TestEngines.newH2Url())) {
            fx.insert(row(1, "new", "1.00", null, null));
            fx.insert(row(2, "new", "2.00", null, null));
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            assertTicks("mssql_change_tracking", TestEngines.newDatabase("cli_ct"));
        }
    }

    /**
     * --allow-capture-instance-ddl through the CLI: without it a table that gained a column gets no new capture
     * instance; with it the tick creates dbo_orders_v2 and the next tick reads it (its report's offset names it).
     * Refused for Change Tracking.
     */
    @Test
    void allowCaptureInstanceDdl() throws Exception {
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(row(1, "new", "1.00", null, null)).commit();
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            String dataset = TestEngines.newDatabase("cli_cdc_ddl") + ".orders_cdc";
            CliRun first = live("mssql_cdc", dataset);
            assertEquals(0, first.exitCode(), first.stderr());
            fx.addColumn("channel", "NVARCHAR(20)");
            CliRun plain = live("mssql_cdc", dataset);
            assertEquals(0, plain.exitCode(), plain.stderr());
            assertTrue(fx.enableTableCalls.isEmpty(), "no DDL without the flag");

            CliRun created = live("mssql_cdc", dataset, "--allow-capture-instance-ddl");
            assertEquals(0, created.exitCode(), created.stderr());
            assertEquals(1, fx.enableTableCalls.size());
            assertEquals("dbo_orders_v2", fx.enableTableCalls.get(0)[0]);
            fx.txn().insert(row(row(2, "new", "2.00", null, null), "web")).commit();
            CliRun next = live("mssql_cdc", dataset, "--allow-capture-instance-ddl");
            assertEquals(0, next.exitCode(), next.stderr());
            JsonNode r = json(next.stdout());
            assertEquals(1, r.path("counts").path("applied").asLong());
            assertEquals("dbo_orders_v2", r.path("offset_after").path("capture_instance").asText());
            assertEquals(1, fx.enableTableCalls.size());

            CliRun ct = live("mssql_change_tracking", dataset, "--allow-capture-instance-ddl");
            assertEquals(1, ct.exitCode());
            assertTrue(ct.stderr().contains("--allow-capture-instance-ddl is for --backend mssql_cdc"), ct.stderr());
        }
    }
}
