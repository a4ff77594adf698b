package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * After the commit the predecessor sits under the candidate's name on every member; it is dropped there only
 * when its UUID is the recorded predecessor UUID. A member whose UUIDs show the exchange undone after the commit
 * (the recorded candidate under the candidate's name, the recorded predecessor under the target's: a member-local
 * exchange from an overtaken process landed late) is swapped back first, then cleaned. Returns the members where
 * cleanup is still outstanding (member unreachable, or a table with another UUID under that name): they stay
 * recoverable with the same run id.
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
                ClusterMember member = e.getValue();
                if (member.dropExact(t.database(), g.candidate(), r.predecessorUuid())) {
                    continue;
                }
                if (!settle(member, e.getKey(), t, record, g, old.get())) {
                    outstanding.add(e.getKey());
                }
            } catch (MemberUnavailableException ex) {
                outstanding.add(e.getKey());
            }
        }
        return outstanding;
    }

    /**
     * A table under the candidate's name that is not the recorded predecessor is touched only when its UUID and
     * marker prove what it is: the recorded candidate with the predecessor back under the target's name (a late
     * member-local exchange undid the publication on this member: it is exchanged again, then the predecessor is
     * dropped by its recorded UUID), or an unpublished table carrying this generation's marker (a late create after
     * the predecessor was dropped: dropped by its own UUID). Anything else stays, outstanding.
     */
    private static boolean settle(ClusterMember member, MemberId id, PublicationTarget t, FenceRecord record,
                                  Generation g, TableState under) {
        FenceRecord.MemberRecord r = record.members().get(id);
        if (swappedBack(member, t, under, r)) {
            member.exchangeLocal(t.database(), t.table(), g.candidate(), record.ddlQueryId() + "-reassert-" + id.value());
            return member.dropExact(t.database(), g.candidate(), r.predecessorUuid());
        }
        if (g.marker().equals(under.marker()) && !under.uuid().equals(r.candidateUuid())) {
            return member.dropExact(t.database(), g.candidate(), under.uuid());
        }
        return false;
    }

    private static boolean swappedBack(ClusterMember member, PublicationTarget t, TableState underCandidate,
                                       FenceRecord.MemberRecord r) {
        Optional<TableState> target = member.table(t.database(), t.table());
        return underCandidate.uuid().equals(r.candidateUuid()) && target.isPresent()
            && target.get().uuid().equals(r.predecessorUuid());
    }
}
