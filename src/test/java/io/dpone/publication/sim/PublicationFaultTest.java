package io.dpone.publication.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.Phase;
import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationOutcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Named faults with exact expectations (the seeded schedules cover their combinations). */
class PublicationFaultTest {
    private static final String RUN = "run-1";

    private static String code(PublicationOutcome o) {
        return o.blockers().get(0).code();
    }

    @Test
    void aDifferentOperationIsFencedUntilTheFirstIsCleaned() {
        SimWorld w = SimHarness.world(3, 2, PublicationMode.EXTERNAL, 5, true);
        w.faults.unreachableAt = 12;
        w.faults.unreachableMember = w.memberIds.get(1);
        PublicationOutcome first = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        assertEquals("publication.member_unreachable", code(first));
        assertEquals(w.memberIds.get(1).value(), first.blockers().get(0).subject(), "the subject is the opaque member id");
        PublicationOutcome other = SimHarness.run(w, "run-2", PublicationMode.EXTERNAL, null);
        assertEquals("publication.fenced", code(other));
        assertEquals(SimHarness.operationId(RUN), other.blockers().get(0).details().get("fencing_operation_id"));
        w.faults.unreachable.clear();
        assertTrue(SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null).cleanupComplete());
        assertTrue(SimHarness.run(w, "run-2", PublicationMode.EXTERNAL, null).committed());
        assertEquals(List.of(), w.violations);
    }

    @Test
    void anArtifactOverTheRowBudgetReleasesTheFenceWithoutTouchingAMember() {
        SimWorld w = SimHarness.world(4, 2, PublicationMode.EXTERNAL, 11, true);
        PublicationOutcome o = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, 10L);
        assertEquals("publication.external_content_row_budget_exceeded", code(o));
        assertEquals(Phase.RELEASED, o.phase());
        w.tables.values().forEach(t -> assertEquals(1, t.size(), "no candidate was created"));
        PublicationOutcome retried = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, 10L);
        assertEquals(Phase.RELEASED, retried.resumedFrom(), "the same operation may retry after a release");
        assertEquals("publication.external_content_row_budget_exceeded", code(retried));
        assertTrue(SimHarness.run(w, "run-2", PublicationMode.EXTERNAL, 11L).committed(), "a new plan may proceed");
    }

    @Test
    void anExpiredEntryWithMembersThatDisagreeBlocksAndWritesNoReceipt() {
        SimWorld w = SimHarness.world(5, 2, PublicationMode.EXTERNAL, 5, true);
        w.faults.crashAt = crashPointBefore(5, "ddl submit");
        try {
            SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        } catch (SimCrash expected) {
            // the process died while sending the exchange: recorded, entry not created
        }
        assertTrue(w.ddlQueue.isEmpty());
        // the entry ran on one member only and then expired: the members now disagree
        FenceRecordView.exchangeOn(w, w.memberIds.get(0));
        PublicationOutcome o = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        assertEquals("publication.ddl_queue_entry_expired", code(o));
        assertEquals(Phase.DDL_RECORDED, o.phase());
        assertNull(w.receipts.get(SimHarness.operationId(RUN)));
        assertEquals(List.of(), w.violations);
    }

    @Test
    void aRecordedButNeverSentExchangeIsSentOnceOnResume() {
        SimWorld w = SimHarness.world(5, 2, PublicationMode.EXTERNAL, 5, true);
        w.faults.crashAt = crashPointBefore(5, "ddl submit");
        try {
            SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        } catch (SimCrash expected) {
            // recorded, not sent
        }
        PublicationOutcome o = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        assertTrue(o.committed(), o.toString());
        assertEquals(Phase.DDL_RECORDED, o.resumedFrom());
        assertEquals(List.of(), w.violations, "the query id was submitted exactly once");
    }

    @Test
    void aHostThatExecutesTheExchangeTwiceIsRepairedFromUuidEvidence() {
        SimWorld w = SimHarness.world(6, 3, PublicationMode.EXTERNAL, 7, true);
        w.faults.executeTwice = w.memberIds.get(2);
        PublicationOutcome o = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        assertTrue(o.committed() && o.cleanupComplete(), o.toString());
        assertNull(w.faults.executeTwice, "the fault fired");
        SimInvariants.checkFinal(w, SimHarness.operationId(RUN));
        assertEquals(List.of(), w.violations);
    }

    @Test
    void anAmbiguousLoadIsRebuiltNotAppended() {
        SimWorld w = SimHarness.world(7, 2, PublicationMode.EXTERNAL, 9, false);
        w.faults.ambiguousLoad = w.memberIds.get(0);
        PublicationOutcome first = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        assertEquals("publication.member_unreachable", code(first));
        assertFalse(first.committed());
        PublicationOutcome second = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        assertTrue(second.committed(), second.toString());
        assertEquals(Phase.SEALED, second.resumedFrom());
        SimInvariants.checkFinal(w, SimHarness.operationId(RUN));
        assertEquals(List.of(), w.violations);
    }

    @Test
    void aLostAuthorityAcknowledgementIsRecognisedAsOurOwnWrite() {
        SimWorld w = SimHarness.world(8, 2, PublicationMode.INTERNAL, 4, true);
        w.faults.lostAuthorityAck = true;
        PublicationOutcome o = SimHarness.run(w, RUN, PublicationMode.INTERNAL, null);
        assertTrue(o.committed() && o.cleanupComplete(), o.toString());
        assertFalse(w.faults.lostAuthorityAck, "the fault fired");
    }

    @Test
    void aChangedMemberSetNeverRebindsASealedGeneration() {
        SimWorld w = SimHarness.world(5, 2, PublicationMode.EXTERNAL, 5, true);
        w.faults.crashAt = crashPointBefore(5, "create on");
        try {
            SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        } catch (SimCrash expected) {
            // sealed, then died
        }
        assertEquals(Phase.SEALED, w.authority.values().iterator().next().record().phase());
        MemberId removed = w.memberIds.remove(1);
        w.tables.remove(removed);
        PublicationOutcome o = SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
        assertEquals("publication.inventory_changed", code(o));
    }

    /** The side-effect count at which a clean run is about to perform {@code what}. */
    private static int crashPointBefore(long seed, String what) {
        for (int k = 1; k < 500; k++) {
            SimWorld w = SimHarness.world(seed, 2, PublicationMode.EXTERNAL, 5, true);
            w.faults.crashAt = k;
            try {
                SimHarness.run(w, RUN, PublicationMode.EXTERNAL, null);
                break;
            } catch (SimCrash c) {
                if (c.getMessage().startsWith("simulated crash " + what + " ")) {
                    return k;
                }
            }
        }
        throw new AssertionError("no " + what + " in a clean run");
    }

    /** Direct manipulation of member tables, as a DDL worker would do it. */
    static final class FenceRecordView {
        static void exchangeOn(SimWorld w, MemberId member) {
            var fence = w.authority.values().iterator().next().record();
            String candidate = SimHarness.target(PublicationMode.EXTERNAL, null).candidateName(fence.generationId());
            SimMember.exchange(w.tables.get(member), SimInvariants.DB, SimInvariants.TABLE, candidate);
        }
    }
}
