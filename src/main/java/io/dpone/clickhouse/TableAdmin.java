package io.dpone.clickhouse;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.List;
import java.util.Optional;

/** Catalog reads and table lifecycle statements, written once for every endpoint. */
public final class TableAdmin {
    private final ClickHouseEndpoint ch;

    public TableAdmin(ClickHouseEndpoint ch) {
        this.ch = ch;
    }

    /** Creates {@code database} as Atomic when missing; blocks when it exists with another engine. */
    public void ensureAtomicDatabase(String database, String subject) {
        List<List<String>> rows = ch.query("SELECT engine FROM system.databases WHERE name = "
            + ClickHouseSql.literal(database));
        if (rows.isEmpty()) {
            ch.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(database) + " ENGINE = Atomic");
        } else if (!"Atomic".equals(rows.get(0).get(0))) {
            throw new DponeException(BlockerCode.SINK_DATABASE_NOT_ATOMIC, subject,
                "database " + database + " uses engine " + rows.get(0).get(0)
                    + "; atomic publication needs an Atomic database");
        }
    }

    public boolean exists(String database, String table) {
        return !ch.query("SELECT 1 FROM system.tables WHERE database = " + ClickHouseSql.literal(database)
            + " AND name = " + ClickHouseSql.literal(table)).isEmpty();
    }

    /** The table comment, when the table exists. */
    public Optional<String> comment(String database, String table) {
        List<List<String>> rows = ch.query("SELECT comment FROM system.tables WHERE database = "
            + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(table));
        return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0).get(0));
    }

    /** The table's sorting key as ClickHouse prints it ({@code system.tables.sorting_key}), when the table exists. */
    public Optional<String> sortingKey(String database, String table) {
        List<List<String>> rows = ch.query("SELECT sorting_key FROM system.tables WHERE database = "
            + ClickHouseSql.literal(database) + " AND name = " + ClickHouseSql.literal(table));
        return rows.isEmpty() ? Optional.empty() : Optional.ofNullable(rows.get(0).get(0));
    }

    /** Names of tables in {@code database} starting with {@code prefix}. */
    public List<String> tablesWithPrefix(String database, String prefix) {
        return ch.query("SELECT name FROM system.tables WHERE database = " + ClickHouseSql.literal(database)
            + " AND startsWith(name, " + ClickHouseSql.literal(prefix) + ") ORDER BY name")
            .stream().map(r -> r.get(0)).toList();
    }

    /** A table and when it last changed: its metadata or its newest part. */
    public record TableActivity(String database, String name, java.time.Instant lastActivity) {
    }

    /** Every table, in any database, whose name starts with {@code prefix}, with its last activity. */
    public List<TableActivity> tablesWithPrefixEverywhere(String prefix) {
        return ch.query("SELECT t.database, t.name, toUnixTimestamp(greatest(t.metadata_modification_time, p.last)) "
            + "FROM system.tables AS t LEFT JOIN (SELECT database, table, max(modification_time) AS last "
            + "FROM system.parts GROUP BY database, table) AS p ON p.database = t.database AND p.table = t.name "
            + "WHERE startsWith(t.name, " + ClickHouseSql.literal(prefix) + ") ORDER BY t.database, t.name").stream()
            .map(r -> new TableActivity(r.get(0), r.get(1), java.time.Instant.ofEpochSecond(Long.parseLong(r.get(2)))))
            .toList();
    }

    public void drop(String database, String table) {
        // No SYNC: the embedded engine (chDB 26.5) never returns from DROP ... SYNC; an Atomic database removes the
        // name at once and the data after database_atomic_delay_before_drop_table_sec, which the cleanup audit allows.
        ch.execute("DROP TABLE IF EXISTS " + ClickHouseSql.table(database, table));
    }

    /** {@code SYSTEM STOP MERGES}: the table's parts stay as written (and running merges are cancelled). */
    public void stopMerges(String database, String table) {
        ch.execute("SYSTEM STOP MERGES " + ClickHouseSql.table(database, table));
    }

    /** {@code SYSTEM START MERGES}: undoes {@link #stopMerges}. */
    public void startMerges(String database, String table) {
        ch.execute("SYSTEM START MERGES " + ClickHouseSql.table(database, table));
    }

    /** Atomically swaps two tables' names (Atomic databases). */
    public void exchange(String db1, String t1, String db2, String t2) {
        ch.execute("EXCHANGE TABLES " + ClickHouseSql.table(db1, t1) + " AND " + ClickHouseSql.table(db2, t2));
    }

    public void rename(String fromDb, String from, String toDb, String to) {
        ch.execute("RENAME TABLE " + ClickHouseSql.table(fromDb, from) + " TO " + ClickHouseSql.table(toDb, to));
    }
}
