package io.dpone.publication.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.publication.protocol.Phase;
import io.dpone.publication.protocol.PublicationOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The seeded schedules that found each zombie bug of issue 17 (all failed on the protocol before the fixes named
 * here). Each asserts the schedule passes and that its zombie really paused where the bug needed it.
 */
class PublicationZombieTest {

    private static SimSchedule replay(long seed, String pausedAt) {
        SimSchedule s = PublicationSimulationTest.runAndCheck(seed);
        assertTrue(s.zombie.pausedAt.startsWith(pausedAt), s::describe);
        assertTrue(s.zombie.woken, s::describe);
        return s;
    }

    private static String zombieBlocker(SimSchedule s) {
        return ((PublicationOutcome) s.zombie.end).blockers().get(0).code();
    }

    /** Fix: every write is checked against the fence, and a resume takes the record over first. */
    @Test
    void aZombieIsStoppedAtItsNextWriteOnceANewRunnerTookTheRecordOver() {
        for (long seed : new long[] {946, 1753}) {
            SimSchedule s = replay(seed, seed == 946 ? "local exchange on" : "authority read");
            assertTrue(s.zombie.fenceMovedAtWake(), s::describe);
            assertEquals("publication.authority_conflict", zombieBlocker(s), s::describe);
        }
    }

    /** Fix: a re-read after our own create or replace must show exactly our version, not a takeover's. */
    @Test
    void aZombieDoesNotAdoptTheTakeoverRecordAsItsOwnWrite() {
        assertEquals("publication.authority_conflict", zombieBlocker(replay(441, "after authority create")));
        assertEquals("publication.authority_conflict", zombieBlocker(replay(165, "after authority replace")));
    }

    /** Fix: a repair exchange landing after the commit is swapped back by cleanup, then the predecessor dropped. */
    @Test
    void aLateRepairExchangeAfterTheCommitIsUndoneByCleanup() {
        SimSchedule s = replay(388, "local exchange on");
        assertTrue(s.world.dropped.containsAll(SimInvariants.INITIAL.get(s.world).values()), s::describe);
    }

    /** Fix: a resume at DDL_RECORDED with a durable receipt does not reconcile the DDL again. */
    @Test
    void aReceiptWrittenBeforeTheCrashIsTrustedOverLaterMemberState() {
        SimSchedule s = replay(706, "local exchange on");
        assertEquals(Phase.CLEANED, s.world.authority.values().iterator().next().record().phase(), s::describe);
    }

    /**
     * Fix: a late CREATE that lands under the candidate's name after the predecessor was dropped is dropped by its
     * UUID (it carries this generation's marker); one landing after the record is CLEANED stays, empty and never
     * published: the residual the documentation names.
     */
    @Test
    void aLateCreateNeverBlocksCleanupAndLeavesAtMostAnEmptyOwnedTable() {
        replay(592, "create on");
        SimSchedule after = replay(273, "create on");
        long orphans = after.world.tables.values().stream().flatMap(t -> t.entrySet().stream())
            .filter(e -> e.getKey().contains("__dpone_")).peek(e -> assertEquals(List.of(), e.getValue().rows))
            .count();
        assertEquals(1, orphans, after::describe);
    }
}
