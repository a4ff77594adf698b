package io.dpone.cdc.clickhouse;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.cdc.SnapshotRecords;
import java.time.Instant;
import java.util.Optional;

/**
 * Which snapshot a CDC log continues: the table {@code <log db>.dpone_cdc_snapshots}
 * ({@code ReplacingMergeTree(version)} ordered by {@code log_dataset}, read with {@code argMax}), one logical row per
 * log: the full refresh's target ({@code db.table}), the stream position the snapshot was handed over at, and the
 * run that published it. The hand-over writes it after the publication is durable and before the stream's first
 * checkpoint; the materializer merges the snapshot table under the log from it. The statements are
 * {@link SnapshotRecords}'.
 */
public final class CdcSnapshots {
    public static final String TABLE = SnapshotRecords.TABLE;

    /** One recorded hand-over. */
    public record Snapshot(String snapshotDataset, String backend, String position, String runId) {
    }

    private final SnapshotRecords records;

    public CdcSnapshots(ClickHouseEndpoint ch, String database) {
        this.records = new SnapshotRecords(ch, database);
    }

    public void record(String logDataset, Snapshot s) {
        records.record(logDataset, new SnapshotRecords.Row(s.snapshotDataset(), s.backend(), s.position(), s.runId()),
            Instant.now().toEpochMilli() * 1000L);
    }

    /** The snapshot {@code logDataset} continues, if one was handed over. */
    public Optional<Snapshot> of(String logDataset) {
        return records.latest(logDataset).map(r -> new Snapshot(r.snapshotDataset(), r.backend(), r.position(),
            r.runId()));
    }
}
