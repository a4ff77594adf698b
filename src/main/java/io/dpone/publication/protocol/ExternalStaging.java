package io.dpone.publication.protocol;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.GenerationMarker;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * External replication: the same sealed artifact is loaded directly into an owned candidate on every member,
 * each with its own deduplication token. A candidate left by an earlier attempt is never appended to: it is
 * dropped by UUID and rebuilt from the same artifact.
 */
final class ExternalStaging implements CandidateStaging {

    @Override
    public Map<MemberId, FenceRecord.MemberRecord> stage(PublicationEnvironment env, Generation g) {
        PublicationTarget t = env.target();
        Map<MemberId, FenceRecord.MemberRecord> records = new LinkedHashMap<>();
        for (Map.Entry<MemberId, ClusterMember> e : env.members().entrySet()) {
            MemberId id = e.getKey();
            ClusterMember member = e.getValue();
            TableState target = member.table(t.database(), t.table()).orElseGet(() -> {
                member.create(t.definition(t.table(), g.artifact().columns(),
                    new GenerationMarker("initial", g.operationId())));
                return member.table(t.database(), t.table()).orElseThrow(() -> missing(id));
            });
            OwnedTables.dropOwnedCandidate(member, id, t.database(), g);
            member.create(t.definition(g.candidate(), g.artifact().columns(), g.marker()));
            member.load(t.database(), g.candidate(), g.artifact(), OperationIds.loadToken(g.id(), id));
            Optional<TableState> ready = OwnedTables.readyCandidate(member, t.database(), g);
            if (ready.isEmpty()) {
                throw new DponeException(BlockerCode.PUBLICATION_MEMBER_LOAD_MISMATCH, id.value(),
                    "the member's candidate does not hold exactly the artifact's rows");
            }
            records.put(id, new FenceRecord.MemberRecord(target.uuid(), ready.get().uuid()));
        }
        return records;
    }

    private static DponeException missing(MemberId id) {
        return new DponeException(BlockerCode.PUBLICATION_RECONCILIATION_FAILED, id.value(),
            "the target the member just created is not visible");
    }
}
