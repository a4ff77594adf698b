package io.dpone.publication.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.publication.protocol.CleanupMutant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: the mutation "predecessor cleanup drops by the UUID it observes now, not the recorded one" must fail
 * the simulation. It is switched on through {@link CleanupMutant} (the simulation's members apply it to the cleanup's drops; production has no seam). The
 * schedules that catch it have a zombie whose member-local repair exchange lands after the commit, so the
 * candidate's name holds the published table when cleanup runs: the real code swaps it back and drops the
 * recorded predecessor; the mutant drops the live table.
 */
class PublicationMutationTest {
    static final String PUBLISHED_DROPPED = "the published target on ";

    @Test
    void theSimulationCatchesCleanupByTheObservedUuid() {
        Map<Long, String> caught = new TreeMap<>();
        Map<Long, String> otherwise = new TreeMap<>();
        CleanupMutant.dropByObservedUuid(() -> {
            for (long seed = 0; seed < PublicationSimulationTest.SCHEDULES; seed++) {
                try {
                    PublicationSimulationTest.runAndCheck(seed);
                } catch (AssertionError e) {
                    (e.getMessage().contains(PUBLISHED_DROPPED) ? caught : otherwise).put(seed, e.getMessage());
                }
            }
            return null;
        });
        System.out.println("mutant (cleanup drops the observed UUID): " + caught.size() + " of "
            + PublicationSimulationTest.SCHEDULES + " schedules fail with '" + PUBLISHED_DROPPED + "... was dropped'"
            + ", " + otherwise.size() + " otherwise; seeds " + caught.keySet());
        assertFalse(caught.isEmpty(), "no schedule caught the mutation");
        long first = caught.keySet().iterator().next();
        assertTrue(caught.get(first).contains("zombie_paused_at=local exchange on"), caught.get(first));
        // the same schedule passes on the real code
        SimSchedule real = PublicationSimulationTest.runAndCheck(first);
        assertEquals(java.util.List.of(), real.world.violations);
    }
}
