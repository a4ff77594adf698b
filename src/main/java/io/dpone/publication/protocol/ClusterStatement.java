package io.dpone.publication.protocol;

import io.dpone.publication.artifact.TableDefinition;
/**
 * The only statements dpone sends {@code ON CLUSTER}. Typed, so adapters render quoted SQL and the simulation can
 * interpret them.
 */
public sealed interface ClusterStatement {

    /** {@code CREATE TABLE ... ON CLUSTER} (internal mode: the replicated candidate or first empty target). */
    record Create(TableDefinition definition) implements ClusterStatement {
    }

    /** {@code EXCHANGE TABLES database.a AND database.b ON CLUSTER}: the publication DDL. */
    record Exchange(String database, String a, String b) implements ClusterStatement {
    }
}
