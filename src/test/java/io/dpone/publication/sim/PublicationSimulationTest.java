package io.dpone.publication.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.Phase;
import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deterministic simulation of the cluster publication protocol: hundreds of seeded schedules, each with a crash
 * before or after a random side effect and one injected fault, resumed with the same run id until done. Every
 * schedule must end with every member holding exactly the new generation, the receipt written only after
 * convergence, predecessors dropped only by UUID after the receipt, and the fence respected.
 */
class PublicationSimulationTest {
    private static final String RUN = "external-cluster-full-refresh-001";
    private static final Set<String> RETRYABLE = Set.of("publication.member_unreachable", "publication.ddl_pending",
        "publication.cleanup_incomplete");

    static LongStream seeds() {
        return LongStream.range(0, 400);
    }

    @ParameterizedTest
    @EnumSource(PublicationMode.class)
    void aCleanRunPublishesOneGenerationEverywhere(PublicationMode mode) {
        SimWorld w = SimHarness.world(1, 3, mode, 20, true);
        PublicationOutcome o = SimHarness.run(w, RUN, mode, null);
        assertTrue(o.committed(), () -> o.blockers().toString());
        assertTrue(o.cleanupComplete());
        assertEquals(Phase.CLEANED, o.phase());
        assertEquals(mode.receiptSchema(), o.receipt().schema());
        assertEquals("runtime", o.receipt().evidenceScope());
        assertEquals("UNVERIFIED", o.receipt().evidenceStatus());
        assertEquals(3, o.receipt().members().size());
        o.receipt().members().forEach(m -> assertTrue(m.memberId().matches("m-[0-9a-f]{16}")));
        SimInvariants.checkFinal(w, SimHarness.operationId(RUN));
        assertEquals(List.of(), w.violations);
        PublicationOutcome again = SimHarness.run(w, RUN, mode, null);
        assertTrue(again.committed());
        assertEquals(Phase.CLEANED, again.resumedFrom());
        assertEquals(o.receipt(), again.receipt(), "a rerun of a finished operation changes nothing");
    }

    /** Exhaustive: a crash before and after every single side effect of a clean run, then one resume. */
    @ParameterizedTest
    @EnumSource(PublicationMode.class)
    void aCrashAtEverySideEffectResumesToTheSameEnd(PublicationMode mode) {
        for (boolean oldTarget : new boolean[] {true, false}) {
            SimWorld clean = SimHarness.world(11, 3, mode, 12, oldTarget);
            assertTrue(SimHarness.run(clean, RUN, mode, null).committed());
            for (int k = 1; k <= clean.faults.count; k++) {
                SimWorld w = SimHarness.world(11, 3, mode, 12, oldTarget);
                w.faults.crashAt = k;
                try {
                    SimHarness.run(w, RUN, mode, null);
                } catch (SimCrash expected) {
                    SimInvariants.checkTargets(w);
                }
                w.elapse(Duration.ofSeconds(10));
                PublicationOutcome resumed = SimHarness.run(w, RUN, mode, null);
                assertTrue(resumed.committed() && resumed.cleanupComplete(), "crash point " + k + ": " + resumed);
                SimInvariants.checkFinal(w, SimHarness.operationId(RUN));
                assertEquals(List.of(), w.violations, "crash point " + k + " old target " + oldTarget);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aSeededScheduleConvergesAfterResumes(long seed) {
        Random r = new Random(seed * 7919 + 13);
        PublicationMode mode = r.nextBoolean() ? PublicationMode.INTERNAL : PublicationMode.EXTERNAL;
        int members = 2 + r.nextInt(2);
        int rows = 1 + r.nextInt(25);
        boolean oldTarget = r.nextInt(5) != 0;
        SimWorld clean = SimHarness.world(seed, members, mode, rows, oldTarget);
        assertTrue(SimHarness.run(clean, RUN, mode, null).committed());
        int total = clean.faults.count;

        SimWorld w = SimHarness.world(seed, members, mode, rows, oldTarget);
        MemberId victim = w.memberIds.get(r.nextInt(members));
        int fault = r.nextInt(8);
        switch (fault) {
            case 1 -> {
                w.faults.unreachableAt = 1 + r.nextInt(total);
                w.faults.unreachableMember = victim;
            }
            case 2 -> w.faults.ambiguousLoad = victim;
            case 3 -> w.faults.ddlTimeout = true;
            case 4 -> w.faults.executeTwice = victim;
            case 5 -> w.faults.expireFinishedEntries = true;
            case 6 -> w.faults.lostAuthorityAck = true;
            default -> { }
        }
        w.faults.crashAt = 1 + r.nextInt(total + 1);
        String op = SimHarness.operationId(RUN);
        boolean otherTried = false;
        PublicationOutcome last = null;
        for (int attempt = 0; attempt < 30; attempt++) {
            try {
                last = SimHarness.run(w, RUN, mode, null);
                SimInvariants.checkTargets(w);
                if (last.committed() && last.cleanupComplete()) {
                    break;
                }
                for (Blocker b : last.blockers()) {
                    assertTrue(RETRYABLE.contains(b.code()), "seed " + seed + ": unexpected blocker " + b);
                }
                w.faults.unreachable.clear();
            } catch (SimCrash crash) {
                SimInvariants.checkTargets(w);
                if (fault == 7 && !otherTried) {
                    otherTried = true;
                    assertOtherOperationFenced(w, mode, op);
                }
                w.faults.crashAt = r.nextInt(3) == 0 ? w.faults.count + 1 + r.nextInt(total) : -1;
            }
            w.elapse(Duration.ofSeconds(5 + r.nextInt(60)));
        }
        assertNotNull(last, "seed " + seed + ": never completed a run");
        assertTrue(last.committed() && last.cleanupComplete(), "seed " + seed + ": " + last);
        SimInvariants.checkFinal(w, op);
        assertEquals(List.of(), w.violations, "seed " + seed + " mode " + mode + " fault " + fault + " old " + oldTarget);
        if (fault == 7) {
            w.faults.clearCrash();
            w.source.add(42L);
            PublicationOutcome next = SimHarness.run(w, "next-run", mode, null);
            assertTrue(next.committed(), "a new operation takes over a resolved fence: " + next);
            assertEquals(List.of(), w.violations);
        }
    }

    /** While the record is unresolved, a different operation is refused and touches nothing. */
    private static void assertOtherOperationFenced(SimWorld w, PublicationMode mode, String holder) {
        var fence = w.authority.values().stream().findFirst();
        if (fence.isEmpty() || fence.get().record().phase().resolved()) {
            return;
        }
        String before = snapshot(w);
        int effects = w.faults.count;
        PublicationOutcome other = SimHarness.run(w, "other-operation", mode, null);
        assertFalse(other.committed());
        assertEquals("publication.fenced", other.blockers().get(0).code());
        assertEquals(holder, other.blockers().get(0).details().get("fencing_operation_id"));
        assertEquals(before, snapshot(w), "a fenced operation changed the cluster");
        assertEquals(effects, w.faults.count, "a fenced operation made a side effect");
    }

    private static String snapshot(SimWorld w) {
        StringBuilder sb = new StringBuilder();
        w.tables.forEach((id, tables) -> tables.forEach((k, t) -> sb.append(id).append(k).append(t.uuid)
            .append(t.rows).append('\n')));
        return sb.toString();
    }
}
