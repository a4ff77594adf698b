package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.List;
import java.util.Optional;

/**
 * The table of snapshot hand-overs a CDC log continues, {@code <log db>.dpone_cdc_snapshots}
 * ({@code ReplacingMergeTree(version)} ordered by {@code log_dataset}, read with {@code argMax}): one logical row per
 * log, written with {@code async_insert = 0}.
 */
public final class SnapshotRecords {
    public static final String TABLE = "dpone_cdc_snapshots";

    private final ClickHouseEndpoint ch;
    private final String database;

    /** One recorded hand-over: the snapshot's {@code db.table}, the stream's backend, the position, the run. */
    public record Row(String snapshotDataset, String backend, String position, String runId) {
    }

    public SnapshotRecords(ClickHouseEndpoint ch, String database) {
        ClickHouseSql.id(database);
        this.ch = ch;
        this.database = database;
    }

    /** Creates the database and table when missing and records {@code row} for {@code logDataset} at {@code version}. */
    public void record(String logDataset, Row row, long version) {
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database));
        ch.execute("CREATE TABLE IF NOT EXISTS " + ClickHouseSql.table(database, TABLE) + " (log_dataset String, "
            + "snapshot_dataset String, backend String, position String, run_id String, "
            + "recorded_at DateTime64(3, 'UTC'), version UInt64) ENGINE = ReplacingMergeTree(version) "
            + "ORDER BY log_dataset");
        ch.execute(ClickHouseSql.insertRow(ClickHouseSql.table(database, TABLE), List.of("log_dataset",
            "snapshot_dataset", "backend", "position", "run_id", "recorded_at", "version"), "async_insert = 0",
            List.of(ClickHouseSql.literal(logDataset), ClickHouseSql.literal(row.snapshotDataset()),
                ClickHouseSql.literal(row.backend()), ClickHouseSql.literal(row.position()),
                ClickHouseSql.literal(row.runId()), "now64(3)", Long.toString(version))));
    }

    /** The latest row recorded for {@code logDataset}; empty when the table or the row does not exist. */
    public Optional<Row> latest(String logDataset) {
        List<List<String>> exists = ch.query("SELECT count() FROM system.tables WHERE database = "
            + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(TABLE));
        if ("0".equals(exists.get(0).get(0))) {
            return Optional.empty();
        }
        List<List<String>> rows = ch.query("SELECT argMax(snapshot_dataset, version), argMax(backend, version), "
            + "argMax(position, version), argMax(run_id, version) FROM " + ClickHouseSql.table(database, TABLE)
            + " WHERE log_dataset = " + ClickHouseSql.literal(logDataset) + " HAVING count() > 0");
        return rows.isEmpty() ? Optional.empty() : Optional.of(new Row(rows.get(0).get(0), rows.get(0).get(1),
            rows.get(0).get(2), rows.get(0).get(3)));
    }
}
