package io.dpone.publication.protocol;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.GenerationMarker;
import java.util.Optional;

/** Evidence checks shared by the staging strategies: what a member holds and whether dpone may touch it. */
final class OwnedTables {
    private OwnedTables() {
    }

    /**
     * Drops a leftover candidate of this operation (an ambiguous or stale load) by its UUID; throws
     * {@code publication.candidate_foreign} when the table is not provably this operation's.
     */
    static void dropOwnedCandidate(ClusterMember member, MemberId id, String database, Generation g) {
        Optional<TableState> existing = member.table(database, g.candidate());
        if (existing.isEmpty()) {
            return;
        }
        GenerationMarker marker = existing.get().marker();
        if (marker == null || !marker.operationId().equals(g.operationId())) {
            throw new DponeException(BlockerCode.PUBLICATION_CANDIDATE_FOREIGN, id.value(),
                "the candidate name is taken by a table this operation does not own");
        }
        if (!member.dropExact(database, g.candidate(), existing.get().uuid())) {
            throw new DponeException(BlockerCode.PUBLICATION_CANDIDATE_FOREIGN, id.value(),
                "the owned candidate changed while it was being replaced");
        }
    }

    /** The candidate's state when it holds exactly the generation: marker and every artifact row. */
    static Optional<TableState> readyCandidate(ClusterMember member, String database, Generation g) {
        return member.table(database, g.candidate())
            .filter(t -> g.marker().equals(t.marker()) && t.rows() == g.artifact().rows());
    }
}
