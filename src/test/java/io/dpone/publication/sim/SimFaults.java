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
    /** Side effects plus authority reads: the points where a process can be paused. */
    int points;
    /** The paused old runner, if this schedule has one (it pauses at one of its own points). */
    SimZombie zombie;
    /** The faults that actually fired in this world (a planned fault may find no occasion). */
    final Set<String> fired = new java.util.TreeSet<>();
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
        point(where, true);
        if (count == unreachableAt) {
            unreachable.add(unreachableMember);
            fired.add("member_lost");
        }
        if (count == crashAt) {
            throw new SimCrash(where + " #" + count);
        }
    }

    /** A point where the calling process may be paused: before a side effect or an authority read. */
    void point(String where, boolean sideEffect) {
        points++;
        if (zombie != null) {
            zombie.onPoint(where, sideEffect);
        }
    }

    void clearCrash() {
        crashAt = -1;
    }

    /** No further crash or lost member (before a different operation runs on the finished world). */
    void clearAll() {
        clearCrash();
        unreachableAt = -1;
        unreachable.clear();
    }
}
