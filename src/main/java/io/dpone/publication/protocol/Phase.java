package io.dpone.publication.protocol;

/**
 * The phases an authority record moves through, in order (see {@code docs/publication.md}). A record is
 * <em>resolved</em> only in {@link #CLEANED} or {@link #RELEASED}; any other phase fences every other operation
 * on the target.
 */
public enum Phase {
    /** The operation holds the target fence; nothing else is known yet. */
    FENCED,
    /** The artifact is sealed; its digests, the member map and the logical generation are recorded. */
    SEALED,
    /** Every member holds a READY candidate for the generation (the barrier passed); UUIDs are recorded. */
    READY,
    /** The publication DDL and its query id are recorded; it may or may not have been sent. */
    DDL_RECORDED,
    /** The durable receipt is written: the publication is committed. */
    COMMITTED,
    /** Every predecessor was dropped by UUID: the record is resolved. */
    CLEANED,
    /** The operation gave up before touching any member (its extraction failed or broke a bound): resolved,
     * nothing was published, any other operation may take the target; the same operation may retry. Only
     * reachable from {@link #FENCED}. */
    RELEASED;

    /** True when the record no longer fences other operations. */
    public boolean resolved() {
        return this == CLEANED || this == RELEASED;
    }

    public boolean atLeast(Phase other) {
        return compareTo(other) >= 0;
    }
}
