package io.dpone.clickhouse.cdc;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The table of CDC checkpoints {@code db.table} ({@code ReplacingMergeTree(saved_version)} ordered by
 * {@code checkpoint_key}): its columns as the catalogue lists them, and its creation with the columns later versions
 * added ({@code resume}, {@code writer}, {@code capture_instance}). The rows are {@link CheckpointRows}'.
 */
public final class CheckpointTable {
    private final ClickHouseEndpoint ch;
    private final String database;
    private final String table;

    /** @throws IllegalArgumentException when {@code database} or {@code table} is not an identifier */
    public CheckpointTable(ClickHouseEndpoint ch, String database, String table) {
        ClickHouseSql.table(database, table);
        this.ch = ch;
        this.database = database;
        this.table = table;
    }

    /** The table's columns, name to type, in one query; empty when the table does not exist. */
    public Map<String, String> columns() {
        Map<String, String> found = new LinkedHashMap<>();
        ch.query("SELECT name, type FROM system.columns WHERE database = " + ClickHouseSql.literal(database)
            + " AND table = " + ClickHouseSql.literal(table)).forEach(r -> found.put(r.get(0), r.get(1)));
        return found;
    }

    /**
     * Creates the database and the table when missing, then adds the {@code resume}, {@code writer} and
     * {@code capture_instance} columns (each {@code String DEFAULT ''}) to a table created before they existed.
     */
    public void ensure() {
        String t = ClickHouseSql.table(database, table);
        ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database));
        ch.execute("CREATE TABLE IF NOT EXISTS " + t + " (checkpoint_key String, "
            + "schema String, stream_id String, stream_json String, backend String, token String, "
            + "snapshot_complete UInt8, saved_at DateTime64(3, 'UTC'), saved_version UInt64, resume String DEFAULT '', "
            + "writer String DEFAULT '', capture_instance String DEFAULT '') "
            + "ENGINE = ReplacingMergeTree(saved_version) ORDER BY checkpoint_key");
        for (String column : List.of("resume", "writer", "capture_instance")) {
            ch.execute("ALTER TABLE " + t + " ADD COLUMN IF NOT EXISTS " + column + " String DEFAULT ''");
        }
    }
}
