package io.dpone.publication.protocol;

import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import java.util.Optional;
import java.util.UUID;

/**
 * Direct operations on one admitted cluster member (its own connection, not through a Distributed table or ON
 * CLUSTER). Every call is a single statement; the protocol decides from evidence whether to make it. Failures
 * throw {@link MemberUnavailableException} (could not reach the member: the statement may or may not have run)
 * or a {@code DponeException} (the member refused it).
 */
public interface ClusterMember {

    /** The table's state, or empty when {@code database.table} does not exist on this member. */
    Optional<TableState> table(String database, String table);

    /** {@code CREATE TABLE} from the definition (fails if the name exists). */
    void create(TableDefinition definition);

    /**
     * Inserts the sealed artifact's rows into {@code database.table} with {@code insert_deduplication_token}
     * = {@code dedupToken}, synchronously; returns after the member acknowledged the insert.
     */
    void load(String database, String table, SealedArtifact artifact, String dedupToken);

    /**
     * Drops {@code database.table} only when its UUID is {@code expected}: reads the UUID first and refuses
     * (returns false) on any other table, so nothing is dropped without exact UUID evidence.
     */
    boolean dropExact(String database, String table, UUID expected);

    /**
     * A member-local {@code EXCHANGE TABLES a AND b}, used only to repair a member whose tables show (by UUID)
     * that a cluster exchange ran twice there.
     */
    void exchangeLocal(String database, String a, String b, String queryId);

    /** {@code SYSTEM SYNC REPLICA database.table} (internal mode): returns once this replica fetched every part
     * the replication log holds for the table. */
    void syncReplica(String database, String table);
}
