package io.dpone.publication.sim;

import io.dpone.publication.MemberId;
import java.util.HashSet;
import java.util.Set;

/**
 * The faults one schedule injects. Every side effect in the simulated world calls {@link #sideEffect} before and
 * after it happens; the process crashes at the configured count. Other knobs make a member unreachable, make a
 * load or a DDL submission ambiguous, make a host run a DDL entry twice, or expire queue entries early.
 */
final class SimFaults {
    int crashAt = -1;
    int count;
    final Set<MemberId> unreachable = new HashSet<>();
    /** The next load on this member lands, then reports failure (outcome unknown to the caller). */
    MemberId ambiguousLoad;
    /** The next publication submit creates its entry, then reports an unknown outcome (timeout). */
    boolean ddlTimeout;
    /** The next exchange entry is executed twice on this member before it reports FINISHED. */
    MemberId executeTwice;
    /** Queue entries vanish as soon as every member finished them. */
    boolean expireFinishedEntries;
    /** An authority replace lands but reports failure (the store retried a write whose ack was lost). */
    boolean lostAuthorityAck;

    /** At this side-effect count, {@link #unreachableMember} stops answering (a member lost mid-phase). */
    int unreachableAt = -1;
    MemberId unreachableMember;

    void sideEffect(String where) {
        count++;
        if (count == unreachableAt) {
            unreachable.add(unreachableMember);
        }
        if (count == crashAt) {
            throw new SimCrash(where + " #" + count);
        }
    }

    void clearCrash() {
        crashAt = -1;
    }
}
