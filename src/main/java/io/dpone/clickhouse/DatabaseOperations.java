package io.dpone.clickhouse;

import java.util.Optional;

/**
 * Databases: their engine, creating an Atomic one, dropping one. One role of {@link ClickHouseOperations} (issue 33:
 * interfaces of at most five methods); a caller that needs only this role takes it.
 */
public interface DatabaseOperations {

    /** The engine of {@code database} ({@code Atomic}, {@code Ordinary}, ...), empty when it does not exist. */
    Optional<String> databaseEngine(String database);

    /** {@code CREATE DATABASE IF NOT EXISTS database ENGINE = Atomic}. */
    void createDatabase(String database);

    /** {@code DROP DATABASE IF EXISTS database} (no SYNC: the embedded engine never returns from it). */
    void dropDatabase(String database);
}
