package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.mssql.H2CdcFixture;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CDC path into a ClickHouse server alias through the HTTP twin, as a user runs it: a tick of the spec's example
 * into the CDC log with the checkpoint committed, the same tick again (replayed, nothing applied twice), and the
 * materialization of the log into the serving table.
 */
@io.dpone.testing.ProcessTest
class TwinCdcCliTest {
    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(ConnectionContext.PROPERTY);
    }

    @Test
    void tickReplayAndMaterializeIntoAServerAlias() throws Exception {
        TwinProcess twin = TwinProcess.shared();
        var alias = twin.alias("clickhouse_server");
        String db = TestEngines.newDatabase("twin_cdc_cli");
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              clickhouse_server: {type: clickhouse, url: "%s", user: %s, password_file: "%s"}
            """.formatted(alias.url(), alias.user(), alias.passwordFile()));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
        Path events = Files.copy(Path.of("examples/cdc/orders/events.json"), dir.resolve("events.json"));
        String[] tick = {"ops", "cdc-runtime-run", "--source", "mssql", "--sink", "clickhouse", "--backend",
            "mssql_cdc", "--pipeline-name", "orders-cdc", "--source-schema", "dbo", "--source-table", "orders",
            "--target-dataset", db + ".orders_cdc", "--unique-key", "order_id", "--events-json", events.toString(),
            "--checkpoint-json", dir.resolve("checkpoint.json").toString(), "--output-dir",
            dir.resolve("out").toString(), "--sink-connection-id", "clickhouse_server", "--format", "json"};
        CliRun first = CliRun.of(tick);
        assertEquals(0, first.exitCode(), first.stderr());
        JsonNode r1 = new ObjectMapper().readTree(first.stdout());
        assertTrue(r1.path("committed").asBoolean(), first.stdout());
        long applied = r1.path("counts").path("applied").asLong();
        assertTrue(applied > 0);
        CliRun again = CliRun.of(tick);
        assertEquals(0, again.exitCode(), again.stderr());
        JsonNode r2 = new ObjectMapper().readTree(again.stdout());
        assertEquals(0, r2.path("counts").path("applied").asLong(), again.stdout());
        String serving = TestEngines.newDatabase("twin_cdc_serving");
        CliRun materialized = CliRun.of("ops", "cdc-materialize-clickhouse", "--cdc-dataset", db + ".orders_cdc",
            "--target-dataset", serving + ".orders_current", "--unique-key", "order_id", "--sink-connection-id",
            "clickhouse_server", "--output-dir", dir.resolve("mat").toString(), "--format", "json");
        assertEquals(0, materialized.exitCode(), materialized.stderr());
        try (ClickHouseEndpoint ch = twin.endpoint()) {
            List<List<String>> log = ch.query("SELECT count(), uniqExact(dpone_cdc_event_id) FROM "
                + ClickHouseSql.table(db, "orders_cdc"));
            assertEquals(String.valueOf(applied), log.get(0).get(0), "every event once in the log");
            assertEquals(log.get(0).get(0), log.get(0).get(1));
            long keys = Long.parseLong(ch.query("SELECT uniqExact(order_id) FROM " + ClickHouseSql.table(db,
                "orders_cdc")).get(0).get(0));
            long current = Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(serving,
                "orders_current")).get(0).get(0));
            assertTrue(current > 0 && current <= keys, current + " of " + keys);
            assertTrue(Files.exists(dir.resolve("checkpoint.json")), "local mode commits to the checkpoint file");
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(serving));
        }
    }

    @Test
    void liveTicksCommitToTheClickHouseOffsetTableOnAServerAlias() throws Exception {
        TwinProcess twin = TwinProcess.shared();
        var alias = twin.alias("clickhouse_server");
        String db = TestEngines.newDatabase("twin_cdc_live");
        try (H2CdcFixture fx = new H2CdcFixture(TestEngines.newH2Url())) {
            fx.txn().insert(H2CdcFixture.row(1, "new", "1.00", null, null))
                .insert(H2CdcFixture.row(2, "new", "2.00", null, null)).commit();
            fx.txn().update(H2CdcFixture.row(1, "new", "1.00", null, null),
                H2CdcFixture.row(1, "paid", "1.00", null, null)).commit();
            Path context = Files.writeString(dir.resolve("context.yaml"), """
                connections:
                  mssql-prod: {type: mssql, url: "%s", user: sa}
                  clickhouse_server: {type: clickhouse, url: "%s", user: %s, password_file: "%s"}
                """.formatted(fx.url, alias.url(), alias.user(), alias.passwordFile()));
            System.setProperty(ConnectionContext.PROPERTY, context.toString());
            String[] tick = {"ops", "cdc-runtime-run", "--mode", "live", "--source", "mssql", "--sink", "clickhouse",
                "--backend", "mssql_cdc", "--pipeline-name", "orders-cdc", "--source-schema", "dbo", "--source-table",
                "orders", "--target-dataset", db + ".orders_cdc", "--unique-key", "order_id",
                "--source-connection-id", "mssql-prod", "--sink-connection-id", "clickhouse_server", "--format",
                "json"};
            CliRun first = CliRun.of(tick);
            assertEquals(0, first.exitCode(), first.stderr());
            JsonNode r = new ObjectMapper().readTree(first.stdout());
            assertTrue(r.path("committed").asBoolean(), first.stdout());
            CliRun again = CliRun.of(tick);
            assertEquals(0, again.exitCode(), again.stderr());
            assertEquals(0, new ObjectMapper().readTree(again.stdout()).path("counts").path("read").asLong());
            try (ClickHouseEndpoint ch = twin.endpoint()) {
                assertEquals(r.path("counts").path("applied").asText(), ch.query("SELECT count() FROM "
                    + ClickHouseSql.table(db, "orders_cdc")).get(0).get(0));
                assertEquals(r.path("offset_after").path("position").asText(), ch.query("SELECT argMax(token, "
                    + "saved_version) FROM " + ClickHouseSql.table(db, "dpone_cdc_offsets")).get(0).get(0));
                ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
            }
        }
    }
}
