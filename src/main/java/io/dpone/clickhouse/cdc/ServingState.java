package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.List;
import java.util.Optional;

/**
 * The state incremental serving records per target, {@code <target db>.dpone_cdc_materialized}
 * ({@code ReplacingMergeTree(state_version)} ordered by the target, read with {@code argMax}): the versioned table's
 * UUID, the applied version, the handed-over snapshot's run and the delete mode, written by a synchronous insert.
 */
public final class ServingState {
    public static final String TABLE = "dpone_cdc_materialized";

    private final ClickHouseEndpoint ch;
    private final String database;

    /**
     * One recorded state of a target.
     *
     * @param appliedVersion the highest version applied (decimal text; empty or null for none)
     * @param stateVersion   orders the target's states: the latest is the highest
     */
    public record Row(String versionsUuid, String appliedVersion, String snapshotRunId, String deleteMode,
                      long stateVersion) {
    }

    public ServingState(ClickHouseEndpoint ch, String database) {
        this.ch = ch;
        this.database = database;
    }

    /** The latest state recorded for {@code targetDataset}; empty when none is (the table must exist). */
    public Optional<Row> latest(String targetDataset) {
        List<List<String>> rows = ch.query("SELECT argMax(versions_uuid, state_version), argMax(applied_version, "
            + "state_version), argMax(snapshot_run_id, state_version), argMax(delete_mode, state_version), "
            + "max(state_version) FROM " + table() + " WHERE target_dataset = " + ClickHouseSql.literal(targetDataset)
            + " HAVING count() > 0");
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        List<String> r = rows.get(0);
        return Optional.of(new Row(r.get(0), r.get(1), r.get(2), r.get(3), Long.parseLong(r.get(4))));
    }

    /** Creates the state table when missing. */
    public void create() {
        ch.execute("CREATE TABLE IF NOT EXISTS " + table() + " (target_dataset String, cdc_dataset String, "
            + "versions_uuid String, applied_version String, snapshot_run_id String, delete_mode String, "
            + "updated_at DateTime64(3, 'UTC'), state_version UInt64) ENGINE = ReplacingMergeTree(state_version) "
            + "ORDER BY target_dataset");
    }

    /** Records {@code row} for {@code targetDataset}, read from {@code cdcDataset}, by a synchronous insert. */
    public void record(String targetDataset, String cdcDataset, Row row) {
        ch.execute(ClickHouseSql.insertRow(table(), List.of("target_dataset", "cdc_dataset", "versions_uuid",
            "applied_version", "snapshot_run_id", "delete_mode", "updated_at", "state_version"), "async_insert = 0",
            List.of(ClickHouseSql.literal(targetDataset), ClickHouseSql.literal(cdcDataset),
                ClickHouseSql.literal(row.versionsUuid()), ClickHouseSql.literal(row.appliedVersion() == null ? ""
                    : row.appliedVersion()), ClickHouseSql.literal(row.snapshotRunId()),
                ClickHouseSql.literal(row.deleteMode()), "now64(3)", Long.toString(row.stateVersion()))));
    }

    private String table() {
        return ClickHouseSql.table(database, TABLE);
    }
}
