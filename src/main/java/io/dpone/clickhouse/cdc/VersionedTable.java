package io.dpone.clickhouse.cdc;

import static io.dpone.clickhouse.cdc.VersionedColumns.DELETED;
import static io.dpone.clickhouse.cdc.VersionedColumns.OPERATION;
import static io.dpone.clickhouse.cdc.VersionedColumns.VERSION;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The statements that build an incremental target's versioned table, {@code ReplacingMergeTree(dpone_cdc_version[,
 * dpone_cdc_deleted])} ordered by the keys: its {@code CREATE TABLE}, the latest change per key of some rows, their
 * insert (the deleted flag taken from the operation, with a deduplication token when one is given) and the table's
 * UUID.
 */
public final class VersionedTable {
    private final ClickHouseEndpoint ch;
    private final String database;

    public VersionedTable(ClickHouseEndpoint ch, String database) {
        this.ch = ch;
        this.database = database;
    }

    /**
     * {@code CREATE TABLE} of {@code table} with {@code columns} (name to type, in order) sorted by {@code by}; with
     * {@code dropDeletes} the deleted flag is the engine's {@code is_deleted}, so {@code FINAL} leaves out a key whose
     * latest change is a delete (else {@code FINAL} keeps it, flagged).
     */
    public void create(String table, Map<String, String> columns, List<String> by, boolean dropDeletes,
                       String comment) {
        List<String> defs = new ArrayList<>();
        columns.forEach((c, t) -> defs.add(ClickHouseSql.id(c) + " " + t));
        ch.execute("CREATE TABLE " + ClickHouseSql.table(database, table) + " (" + String.join(", ", defs)
            + ") ENGINE = ReplacingMergeTree(" + ClickHouseSql.id(VERSION) + (dropDeletes
                ? ", " + ClickHouseSql.id(DELETED) : "") + ") ORDER BY (" + ClickHouseSql.idList(by)
            + ") SETTINGS non_replicated_deduplication_window = 1000 COMMENT " + ClickHouseSql.literal(comment));
    }

    /** The latest of {@code rows} (a {@code SELECT} of {@code carried}) per {@code by}, by version. */
    public static String latest(String rows, List<String> carried, List<String> by) {
        return RebuildStatements.latest(rows, carried, by, VERSION);
    }

    /**
     * Inserts {@code rows} (a {@code SELECT} of {@code carried}, the log's operation among them) into {@code table}:
     * {@code carried} as they are and the deleted flag; synchronously, deduplicated by {@code token} when it is not
     * null (a retried batch writes nothing twice).
     */
    public void insert(String table, List<String> carried, String rows, String token) {
        List<String> insertColumns = new ArrayList<>(carried);
        insertColumns.add(DELETED);
        ch.execute("INSERT INTO " + ClickHouseSql.table(database, table) + " (" + ClickHouseSql.idList(insertColumns)
            + ") SELECT " + ClickHouseSql.idList(carried) + ", toUInt8(" + ClickHouseSql.id(OPERATION) + " = 'delete')"
            + " FROM (" + rows + ") SETTINGS async_insert = 0" + (token == null ? "" : ", insert_deduplicate = 1, "
                + "insert_deduplication_token = " + ClickHouseSql.literal(token)));
    }

    /** The table's UUID; empty when it does not exist. */
    public String uuid(String table) {
        List<List<String>> rows = ch.query("SELECT toString(uuid) FROM system.tables WHERE database = "
            + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(table));
        return rows.isEmpty() ? "" : rows.get(0).get(0);
    }
}
