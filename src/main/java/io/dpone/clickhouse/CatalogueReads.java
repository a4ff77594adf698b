package io.dpone.clickhouse;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the catalogue says of tables: one table's facts and columns, tables by name prefix, a table's active parts. One
 * role of {@link ClickHouseOperations} (issue 33: interfaces of at most five methods); a caller that needs only this
 * role takes it.
 */
public interface CatalogueReads {

    /** What the catalogue says of one table, empty when it does not exist. */
    Optional<TableInfo> table(String database, String table);

    /** The table's columns in their order, as ClickHouse prints their types; empty when the table does not exist. */
    List<Column> columns(String database, String table);

    /** Names of the tables in {@code database} that start with {@code prefix}, sorted. */
    List<String> tablesWithPrefix(String database, String prefix);

    /** Every table, in any database, whose name starts with {@code prefix}, with its last activity. */
    List<TableActivity> tablesWithPrefixEverywhere(String prefix);

    /** The names of the table's active parts. */
    List<String> activeParts(String database, String table);

    /**
     * What the catalogue says of a table. {@code sortingKey} as ClickHouse prints it ({@code (a)} for one column on
     * chDB 26.5, {@code a, b} for more; empty for none);
     * {@code metadataModified} to the second; {@code totalRows} as {@code system.tables} counts them (0 when unknown).
     */
    record TableInfo(String uuid, String engine, String comment, String sortingKey, Instant metadataModified,
                     long totalRows) {
    }

    /** A column and its ClickHouse type. */
    record Column(String name, String type) {
    }

    /** A table and when it last changed: its metadata or its newest part. */
    record TableActivity(String database, String name, Instant lastActivity) {
    }
}
