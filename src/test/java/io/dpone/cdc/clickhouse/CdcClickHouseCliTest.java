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
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }
}
