package io.dpone.publication.protocol;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

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

    /**
     * How many entries the whole distributed-DDL queue (every cluster's) holds that were created at or after
     * {@code since}; empty when this channel cannot tell. The queue removes its oldest entries once it holds more
     * than {@code max_tasks_in_queue}, so fewer than that many newer entries prove a missing entry created after
     * {@code since} was not pushed out by count.
     */
    default OptionalLong entriesSince(Instant since) {
        return OptionalLong.empty();
    }
}
