package io.dpone.cdc.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpone ops cdc-runtime-run --sink-connection-id}: local events JSON and checkpoint, ClickHouse CDC log. */
@io.dpone.testing.EngineTest
class CdcClickHouseCliTest {
    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(ConnectionContext.PROPERTY);
    }

    @Test
    void appliesTheSpecExampleToTheClickHouseLogOnceAndCommitsTheCheckpoint() throws Exception {
        String db = TestEngines.newDatabase("cdc_cli");
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              clickhouse_test:
                type: clickhouse
                embedded: true
                options: {path: "%s"}
            """.formatted(TestEngines.clickHousePath()));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
        Path events = Files.copy(Path.of("examples/cdc/orders/events.json"), dir.resolve("events.json"));
        String[] args = {"ops", "cdc-runtime-run", "--source", "mssql", "--sink", "clickhouse", "--backend",
            "mssql_cdc", "--pipeline-name", "orders-cdc", "--source-schema", "dbo", "--source-table", "orders",
            "--target-dataset", db + ".orders_cdc", "--unique-key", "order_id", "--events-json", events.toString(),
            "--checkpoint-json", dir.resolve("checkpoint.json").toString(), "--output-dir", dir.resolve("out").toString(),
            "--sink-connection-id", "clickhouse_test", "--format", "json"};
        CliRun first = CliRun.of(args);
        assertEquals(0, first.exitCode(), first.stderr());
        assertTrue(Files.exists(dir.resolve("checkpoint.json")));
        CliRun again = CliRun.of(args);
        assertEquals(0, again.exitCode(), again.stderr());
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            List<List<String>> counts = ch.query("SELECT count(), uniqExact(dpone_cdc_event_id) FROM "
                + ClickHouseSql.table(db, "orders_cdc"));
            assertEquals(counts.get(0).get(0), counts.get(0).get(1), "every event exactly once");
            assertTrue(Long.parseLong(counts.get(0).get(0)) > 0);
            CliRun materialized = CliRun.of("ops", "cdc-materialize-clickhouse", "--cdc-dataset", db + ".orders_cdc",
                "--target-dataset", db + ".orders", "--unique-key", "order_id", "--sink-connection-id",
                "clickhouse_test", "--output-dir", dir.resolve("materialize").toString(), "--format", "json");
            assertEquals(0, materialized.exitCode(), materialized.stderr());
            assertEquals(List.of(List.of("order_id", "Int32"), List.of("customer_id", "Nullable(Int32)"),
                List.of("status", "Nullable(String)"), List.of("amount", "Nullable(Decimal(10, 2))")),
                ch.query("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.literal(db)
                    + " AND table = 'orders' AND name NOT LIKE 'dpone_cdc_%' ORDER BY position"));
            // the example's history: 1 paid, 2 deleted, 3 moved to key 30 (a delete and an insert at one LSN)
            assertEquals(List.of(List.of("1", "10", "paid", "12050"), List.of("30", "12", "new", "1990")),
                ch.query("SELECT order_id, customer_id, status, toString(toInt64(amount * 100)) FROM "
                    + ClickHouseSql.table(db, "orders") + " ORDER BY order_id"));
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
