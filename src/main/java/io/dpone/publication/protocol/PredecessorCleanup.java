package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * After the commit the predecessor sits under the candidate's name on every member; it is dropped there only
 * when its UUID is the recorded predecessor UUID. Returns the members where cleanup is still outstanding (member
 * unreachable, or a table with another UUID under that name): they stay recoverable with the same run id.
 */
final class PredecessorCleanup {
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
                if (!old.get().uuid().equals(r.predecessorUuid())
                    || !e.getValue().dropExact(t.database(), g.candidate(), r.predecessorUuid())) {
                    outstanding.add(e.getKey());
                }
            } catch (MemberUnavailableException ex) {
                outstanding.add(e.getKey());
            }
        }
        return outstanding;
    }
}
