package io.dpone.clickhouse;

import io.dpone.connect.Secret;

/**
 * Named collections (the S3 keys ClickHouse reads staged objects with): look up, replace, drop. One role of {@link
 * ClickHouseOperations} (issue 33: interfaces of at most five methods); a caller that needs only this role takes it.
 */
public interface NamedCollections {

    /** Whether the named collection exists. */
    boolean namedCollectionExists(String name);

    /** Drops and creates the named collection {@code name} holding these S3 keys (the embedded engine's own store). */
    void replaceNamedCollection(String name, Secret accessKey, Secret secretKey);

    /** {@code DROP NAMED COLLECTION IF EXISTS}. */
    void dropNamedCollection(String name);
}
