package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The all-member READY barrier: every member's candidate has the recorded UUID, this generation's marker and
 * every artifact row, and every target still has the recorded predecessor UUID. Returns the members that fail.
 */
final class ReadyBarrier {
    private ReadyBarrier() {
    }

    static List<MemberId> notReady(PublicationEnvironment env, Generation g, Map<MemberId, FenceRecord.MemberRecord> recorded) {
        List<MemberId> failing = new ArrayList<>();
        PublicationTarget t = env.target();
        for (Map.Entry<MemberId, ClusterMember> e : env.members().entrySet()) {
            FenceRecord.MemberRecord r = recorded.get(e.getKey());
            Optional<TableState> cand = OwnedTables.readyCandidate(e.getValue(), t.database(), g);
            Optional<TableState> target = e.getValue().table(t.database(), t.table());
            boolean ok = r != null && cand.isPresent() && cand.get().uuid().equals(r.candidateUuid())
                && target.isPresent() && target.get().uuid().equals(r.predecessorUuid());
            if (!ok) {
                failing.add(e.getKey());
            }
        }
        return failing;
    }
}
