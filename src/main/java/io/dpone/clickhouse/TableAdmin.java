package io.dpone.clickhouse;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.List;
import java.util.Optional;

/**
 * Catalog reads and table lifecycle steps with the product's rules on top of {@link ClickHouseOperations} (an Atomic
 * database or a typed refusal; a table's comment or sort key, when it exists). The SQL is {@link SqlOperations}'.
 */
public final class TableAdmin {
    private final ClickHouseOperations ops;

    public TableAdmin(ClickHouseEndpoint ch) {
        this.ops = ch.operations();
    }

    /** Creates {@code database} as Atomic when missing; blocks when it exists with another engine. */
    public void ensureAtomicDatabase(String database, String subject) {
        Optional<String> engine = ops.databaseEngine(database);
        if (engine.isEmpty()) {
            ops.createDatabase(database);
        } else if (!"Atomic".equals(engine.get())) {
            throw new DponeException(BlockerCode.SINK_DATABASE_NOT_ATOMIC, subject,
                "database " + database + " uses engine " + engine.get()
                    + "; atomic publication needs an Atomic database");
        }
    }

    public boolean exists(String database, String table) {
        return ops.table(database, table).isPresent();
    }

    /** The table comment, when the table exists. */
    public Optional<String> comment(String database, String table) {
        return ops.table(database, table).map(ClickHouseOperations.TableInfo::comment);
    }

    /** The table's sorting key as ClickHouse prints it ({@code system.tables.sorting_key}), when the table exists. */
    public Optional<String> sortingKey(String database, String table) {
        return ops.table(database, table).map(ClickHouseOperations.TableInfo::sortingKey);
    }

    /** Names of tables in {@code database} starting with {@code prefix}. */
    public List<String> tablesWithPrefix(String database, String prefix) {
        return ops.tablesWithPrefix(database, prefix);
    }

    /** A table and when it last changed: its metadata or its newest part. */
    public record TableActivity(String database, String name, java.time.Instant lastActivity) {
    }

    /** Every table, in any database, whose name starts with {@code prefix}, with its last activity. */
    public List<TableActivity> tablesWithPrefixEverywhere(String prefix) {
        return ops.tablesWithPrefixEverywhere(prefix).stream()
            .map(t -> new TableActivity(t.database(), t.name(), t.lastActivity())).toList();
    }

    public void drop(String database, String table) {
        ops.dropTable(database, table);
    }

    /** {@code SYSTEM STOP MERGES}: the table's parts stay as written (and running merges are cancelled). */
    public void stopMerges(String database, String table) {
        ops.stopMerges(database, table);
    }

    /** {@code SYSTEM START MERGES}: undoes {@link #stopMerges}. */
    public void startMerges(String database, String table) {
        ops.startMerges(database, table);
    }

    /** Atomically swaps two tables' names (Atomic databases). */
    public void exchange(String db1, String t1, String db2, String t2) {
        ops.exchange(db1, t1, db2, t2);
    }

    public void rename(String fromDb, String from, String toDb, String to) {
        ops.rename(fromDb, from, toDb, to);
    }
}
