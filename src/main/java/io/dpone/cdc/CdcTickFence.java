package io.dpone.cdc;

/**
 * Holds a stream's local state (its checkpoint file, its local sink) for one whole tick, so two ticks never
 * rewrite them at once. Acquiring never waits: a tick that finds the fence held is told
 * {@code cdc_runtime.offset_conflict} and changes nothing.
 */
public interface CdcTickFence {
    /** No local state to hold (the offset store's compare-and-set is the only fence). */
    CdcTickFence NONE = stream -> () -> { };

    /** The held fence; close releases it. Throws {@code cdc_runtime.offset_conflict} when another tick holds it. */
    Held acquire(StreamIdentity stream);

    /** A held fence. */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }
}
