package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * After the commit the predecessor sits under the candidate's name on every member; it is dropped there only
 * when its UUID is the recorded predecessor UUID ({@code dropExact} refuses any other). Returns the members where
 * cleanup is still outstanding (member unreachable, or a table with another UUID under that name): they stay
 * recoverable with the same run id.
 */
final class PredecessorCleanup {
    /**
     * Test seam, set only by the simulation's mutation test (issue 17): when true, cleanup hands {@code dropExact}
     * the UUID it observes under the candidate name now instead of the recorded predecessor UUID.
     */
    static volatile boolean mutantDropsObservedUuid;

    private PredecessorCleanup() {
    }

    static List<MemberId> run(PublicationEnvironment env, FenceRecord record, Generation g) {
        PublicationTarget t = env.target();
        List<MemberId> outstanding = new ArrayList<>();
        for (Map.Entry<MemberId, ClusterMember> e : env.members().entrySet()) {
            FenceRecord.MemberRecord r = record.members().get(e.getKey());
            try {
                Optional<TableState> old = e.getValue().table(t.database(), g.candidate());
                if (old.isEmpty()) {
                    continue;
                }
                UUID drop = mutantDropsObservedUuid ? old.get().uuid() : r.predecessorUuid();
                if (!e.getValue().dropExact(t.database(), g.candidate(), drop)) {
                    outstanding.add(e.getKey());
                }
            } catch (MemberUnavailableException ex) {
                outstanding.add(e.getKey());
            }
        }
        return outstanding;
    }
}
