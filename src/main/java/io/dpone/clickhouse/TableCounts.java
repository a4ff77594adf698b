package io.dpone.clickhouse;

/**
 * Row counts of a table: all its rows, and a staging table's rows with its inserts. One role of {@link
 * ClickHouseOperations} (issue 33: interfaces of at most five methods); a caller that needs only this role takes it.
 */
public interface TableCounts {

    /** {@code count()} of the table. */
    long count(String database, String table);

    /** The rows of a staging table and the distinct (load id, loaded at) pairs among them: its inserts. */
    StagedLoads stagedLoads(String database, String table);

    /** A staging table's rows and its inserts (distinct load id and load time). */
    record StagedLoads(long rows, long inserts) {
    }
}
