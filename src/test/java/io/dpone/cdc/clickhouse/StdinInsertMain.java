package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOffsetStore;
import io.dpone.cdc.StreamIdentity;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseQueryException;
import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import java.nio.file.Path;
import java.util.List;

/**
 * Child process of {@link StdinInsertProcessTest}, started with data on its standard input: shows what a plain
 * {@code INSERT ... VALUES} does then on the embedded engine, and runs the statements dpone's one-row stores write
 * (a checkpoint commit, a snapshot record). Prints one line per step.
 */
public final class StdinInsertMain {
    private StdinInsertMain() {
    }

    public static void main(String[] args) {
        try (ClickHouseEndpoint ch = EmbeddedClickHouseEndpoint.open(Path.of(args[0]))) {
            ch.execute("CREATE DATABASE IF NOT EXISTS stdin_db");
            ch.execute("CREATE TABLE stdin_db.plain (v String) ENGINE = MergeTree ORDER BY v");
            try {
                ch.execute("INSERT INTO stdin_db.plain VALUES ('a')");
                System.out.println("values: accepted, rows " + ch.query("SELECT count() FROM stdin_db.plain").get(0).get(0));
            } catch (ClickHouseQueryException e) {
                System.out.println("values: refused");
            }
            StreamIdentity stream = new StreamIdentity("orders-cdc", "mssql_cdc", "dbo", "orders", "analytics.orders",
                List.of("order_id"));
            CdcOffsetStore store = new ClickHouseOffsetStore(ch, "stdin_db", "cdc_offsets");
            store.commit(stream, store.load(stream), new CdcOffset("mssql_cdc", "0x2A", true), "stdin-writer");
            System.out.println("checkpoint: " + store.load(stream).orElseThrow().token());
            CdcSnapshots snapshots = new CdcSnapshots(ch, "stdin_db");
            snapshots.record("analytics.orders_log", new CdcSnapshots.Snapshot("analytics.orders", "mssql_cdc", "0x2A",
                "run-1"));
            System.out.println("snapshot: " + snapshots.of("analytics.orders_log").orElseThrow().position());
        }
    }
}
