package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.List;
import java.util.Optional;

/**
 * The rows of the CDC checkpoint table ({@link CheckpointTable}): the latest of a key, read with
 * {@code argMax(..., saved_version)} so unmerged parts never matter; a synchronous insert ({@code async_insert = 0});
 * and the writers of the rows above a version, the read-back of the store's compare-and-set. The values are the
 * table's text; what they must be is the store's to check.
 */
public final class CheckpointRows {
    private static final List<String> COLUMNS = List.of("checkpoint_key", "schema", "stream_id", "stream_json",
        "backend", "token", "snapshot_complete", "saved_at", "saved_version", "resume", "writer", "capture_instance");

    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;

    /** A checkpoint as stored, each value its text ({@code snapshotComplete} and {@code savedVersion} unparsed). */
    public record Stored(String streamId, String streamJson, String backend, String token, String snapshotComplete,
                         String savedVersion, String schema, String resume, String captureInstance) {
    }

    /** A checkpoint row to insert; {@code savedAt} is {@code yyyy-MM-dd HH:mm:ss.SSS} UTC. */
    public record Checkpoint(String key, String schema, String streamId, String streamJson, String backend,
                             String token, boolean snapshotComplete, String savedAt, long savedVersion, String resume,
                             String writer, String captureInstance) {
    }

    /** @throws IllegalArgumentException when {@code database} or {@code table} is not an identifier */
    public CheckpointRows(ClickHouseEndpoint ch, String database, String table) {
        ClickHouseSql.table(database, table);
        this.ch = ch;
        this.database = database;
        this.table = table;
    }

    /**
     * The latest row of {@code key} by {@code saved_version}, empty when the key has none; a table without the
     * {@code resume} ({@code withResume}) or {@code capture_instance} column ({@code withCaptureInstance}) reads it
     * as empty text.
     */
    public Optional<Stored> latest(String key, boolean withResume, boolean withCaptureInstance) {
        List<List<String>> rows = ch.query("SELECT argMax(stream_id, saved_version), argMax(stream_json, "
            + "saved_version), argMax(backend, saved_version), argMax(token, saved_version), "
            + "argMax(snapshot_complete, saved_version), max(saved_version), argMax(schema, saved_version), "
            + (withResume ? "argMax(resume, saved_version)" : "''") + ", "
            + (withCaptureInstance ? "argMax(capture_instance, saved_version)" : "''") + " FROM "
            + ClickHouseSql.table(database, table) + " WHERE checkpoint_key = " + ClickHouseSql.literal(key)
            + " HAVING count() > 0");
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        List<String> r = rows.get(0);
        return Optional.of(new Stored(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6), r.get(7),
            r.get(8)));
    }

    /** Inserts {@code row} synchronously ({@code async_insert = 0}). */
    public void insert(Checkpoint row) {
        ch.execute(ClickHouseSql.insertRow(ClickHouseSql.table(database, table), COLUMNS, "async_insert = 0",
            List.of(ClickHouseSql.literal(row.key()), ClickHouseSql.literal(row.schema()),
                ClickHouseSql.literal(row.streamId()), ClickHouseSql.literal(row.streamJson()),
                ClickHouseSql.literal(row.backend()), ClickHouseSql.literal(row.token()),
                row.snapshotComplete() ? "1" : "0", ClickHouseSql.literal(row.savedAt()),
                Long.toString(row.savedVersion()), ClickHouseSql.literal(row.resume()),
                ClickHouseSql.literal(row.writer()), ClickHouseSql.literal(row.captureInstance()))));
    }

    /** The writers of {@code key}'s rows whose {@code saved_version} is above {@code version}, by version. */
    public List<String> writersAbove(String key, long version) {
        return ch.query("SELECT writer FROM " + ClickHouseSql.table(database, table) + " WHERE checkpoint_key = "
            + ClickHouseSql.literal(key) + " AND saved_version > " + version + " ORDER BY saved_version").stream()
            .map(r -> r.get(0)).toList();
    }
}
