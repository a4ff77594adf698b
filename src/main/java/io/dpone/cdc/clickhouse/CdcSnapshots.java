package io.dpone.cdc.clickhouse;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Which snapshot a CDC log continues: the table {@code <log db>.dpone_cdc_snapshots}
 * ({@code ReplacingMergeTree(version)} ordered by {@code log_dataset}, read with {@code argMax}), one logical row per
 * log: the full refresh's target ({@code db.table}), the stream position the snapshot was handed over at, and the
 * run that published it. The hand-over writes it after the publication is durable and before the stream's first
 * checkpoint; the materializer merges the snapshot table under the log from it.
 */
public final class CdcSnapshots {
    public static final String TABLE = "dpone_cdc_snapshots";

    /** One recorded hand-over. */
    public record Snapshot(String snapshotDataset, String backend, String position, String runId) {
    }

    private final ClickHouseEndpoint ch;
    private final String database;

    public CdcSnapshots(ClickHouseEndpoint ch, String database) {
        ClickHouseSql.id(database);
        this.ch = ch;
        this.database = database;
    }

    public void record(String logDataset, Snapshot s) {
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database));
        ch.execute("CREATE TABLE IF NOT EXISTS " + ClickHouseSql.table(database, TABLE) + " (log_dataset String, "
            + "snapshot_dataset String, backend String, position String, run_id String, "
            + "recorded_at DateTime64(3, 'UTC'), version UInt64) ENGINE = ReplacingMergeTree(version) "
            + "ORDER BY log_dataset");
        long version = Instant.now().toEpochMilli() * 1000L;
        ch.execute(ClickHouseSql.insertRow(ClickHouseSql.table(database, TABLE), List.of("log_dataset",
            "snapshot_dataset", "backend", "position", "run_id", "recorded_at", "version"), "async_insert = 0",
            List.of(ClickHouseSql.literal(logDataset), ClickHouseSql.literal(s.snapshotDataset()),
                ClickHouseSql.literal(s.backend()), ClickHouseSql.literal(s.position()),
                ClickHouseSql.literal(s.runId()), "now64(3)", Long.toString(version))));
    }

    /** The snapshot {@code logDataset} continues, if one was handed over. */
    public Optional<Snapshot> of(String logDataset) {
        List<List<String>> exists = ch.query("SELECT count() FROM system.tables WHERE database = "
            + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(TABLE));
        if ("0".equals(exists.get(0).get(0))) {
            return Optional.empty();
        }
        List<List<String>> rows = ch.query("SELECT argMax(snapshot_dataset, version), argMax(backend, version), "
            + "argMax(position, version), argMax(run_id, version) FROM " + ClickHouseSql.table(database, TABLE)
            + " WHERE log_dataset = " + ClickHouseSql.literal(logDataset) + " HAVING count() > 0");
        return rows.isEmpty() ? Optional.empty() : Optional.of(new Snapshot(rows.get(0).get(0), rows.get(0).get(1),
            rows.get(0).get(2), rows.get(0).get(3)));
    }
}
