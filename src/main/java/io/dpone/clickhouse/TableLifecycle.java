package io.dpone.clickhouse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's lifecycle: create, drop, exchange with another, rename. One role of {@link ClickHouseOperations} (issue
 * 33: interfaces of at most five methods); a caller that needs only this role takes it.
 */
public interface TableLifecycle {

    /** {@code CREATE TABLE} as {@code spec} says (fails when the table exists). */
    void createTable(TableSpec spec);

    /** {@code DROP TABLE IF EXISTS} (no SYNC: an Atomic database removes the name at once). */
    void dropTable(String database, String table);

    /** {@code EXCHANGE TABLES}: atomically swaps two tables' names (Atomic databases). */
    void exchange(String database1, String table1, String database2, String table2);

    /** {@code RENAME TABLE}. */
    void rename(String fromDatabase, String from, String toDatabase, String to);

    /**
     * A table to create: a MergeTree-family {@code engine} (without arguments), its columns, the sort key (empty:
     * unsorted, {@code ORDER BY tuple()}), table-level settings and the comment.
     */
    record TableSpec(String database, String name, String engine, List<CatalogueReads.Column> columns, List<String> orderBy,
                     Map<String, String> settings, String comment) {
        public TableSpec {
            columns = List.copyOf(columns);
            orderBy = List.copyOf(orderBy);
            settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        }
    }
}
