package io.dpone.clickhouse;

/**
 * Background merges of one table: stopped while its parts must stay as written, started again after. One role of
 * {@link ClickHouseOperations} (issue 33: interfaces of at most five methods); a caller that needs only this role
 * takes it.
 */
public interface MergeControl {

    /** {@code SYSTEM STOP MERGES}: the table's parts stay as written. */
    void stopMerges(String database, String table);

    /** {@code SYSTEM START MERGES}: undoes {@link #stopMerges}. */
    void startMerges(String database, String table);
}
