package io.dpone.publication.protocol;

import java.util.Optional;

/**
 * The distributed-DDL channel of one cluster. A statement is submitted once with a deterministic query id and
 * reconciled afterwards from its queue entry; it is never re-submitted while the entry can still be read.
 */
public interface ClusterDdl {

    /**
     * Submits {@code statement ON CLUSTER} with {@code queryId}. Returns normally when the initiator accepted it
     * (its hosts may still be executing it); throws {@link DdlOutcomeUnknownException} when the outcome is unknown
     * (timeout, lost connection).
     */
    void submit(String queryId, ClusterStatement statement);

    /** The queue entry bound to {@code queryId}, or empty when the queue holds none (never sent, or expired). */
    Optional<DdlQueueEntry> entry(String queryId);
}
