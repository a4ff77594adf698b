package io.dpone.publication.protocol;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.GenerationMarker;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Internal replication: the replicated candidate is created ON CLUSTER, the artifact is loaded once (through
 * the first member, with one deduplication token), and every replica must then hold the whole generation after
 * {@code SYSTEM SYNC REPLICA}. Leftover owned candidates are dropped by UUID on every member and rebuilt.
 */
final class InternalStaging implements CandidateStaging {

    @Override
    public Map<MemberId, FenceRecord.MemberRecord> stage(PublicationEnvironment env, Generation g) {
        PublicationTarget t = env.target();
        ensureTarget(env, g);
        // each (re)build is its own numbered ON CLUSTER create; an earlier one must settle everywhere before its
        // tables are dropped, or a late replica would re-create the old candidate under the new one's name
        int attempt = 1;
        while (env.ddl().entry(createId(g, attempt)).isPresent()) {
            attempt++;
        }
        if (attempt > 1) {
            String previous = createId(g, attempt - 1);
            DdlSteps.await(env, "the previous candidate create", () -> env.ddl().entry(previous)
                .map(e -> e.settled(env.members().keySet())).orElse(true));
        }
        for (Map.Entry<MemberId, ClusterMember> e : env.members().entrySet()) {
            OwnedTables.dropOwnedCandidate(e.getValue(), e.getKey(), t.database(), g);
        }
        DdlSteps.submitOnce(env, createId(g, attempt),
            new ClusterStatement.Create(t.definition(g.candidate(), g.artifact().columns(), g.marker())));
        DdlSteps.await(env, "the candidate create", () -> env.members().values().stream()
            .allMatch(m -> m.table(t.database(), g.candidate()).filter(s -> g.marker().equals(s.marker())).isPresent()));
        Map.Entry<MemberId, ClusterMember> first = env.members().entrySet().iterator().next();
        first.getValue().load(t.database(), g.candidate(), g.artifact(), OperationIds.loadToken(g.id(), first.getKey()));
        Map<MemberId, FenceRecord.MemberRecord> records = new LinkedHashMap<>();
        for (Map.Entry<MemberId, ClusterMember> e : env.members().entrySet()) {
            ClusterMember member = e.getValue();
            member.syncReplica(t.database(), g.candidate());
            TableState ready = OwnedTables.readyCandidate(member, t.database(), g).orElseThrow(() ->
                new DponeException(BlockerCode.PUBLICATION_REPLICA_NOT_CONVERGED, e.getKey().value(),
                    "the replica does not hold the whole candidate generation"));
            TableState target = member.table(t.database(), t.table()).orElseThrow(() ->
                new DponeException(BlockerCode.PUBLICATION_RECONCILIATION_FAILED, e.getKey().value(),
                    "the target disappeared from the member"));
            records.put(e.getKey(), new FenceRecord.MemberRecord(target.uuid(), ready.uuid()));
        }
        return records;
    }

    private static String createId(Generation g, int attempt) {
        return OperationIds.ddlQuery(g.operationId(), g.id(), "create-candidate-" + attempt);
    }

    /** A first publication creates the empty target ON CLUSTER; a target present on only some members blocks. */
    private static void ensureTarget(PublicationEnvironment env, Generation g) {
        PublicationTarget t = env.target();
        long present = env.members().values().stream().filter(m -> m.table(t.database(), t.table()).isPresent())
            .count();
        if (present == env.members().size()) {
            return;
        }
        if (present > 0 && env.ddl().entry(OperationIds.ddlQuery(g.operationId(), g.id(), "create-target")).isEmpty()) {
            throw new DponeException(BlockerCode.PUBLICATION_RECONCILIATION_FAILED, "cluster",
                "the target exists on some members only");
        }
        DdlSteps.submitOnce(env, OperationIds.ddlQuery(g.operationId(), g.id(), "create-target"),
            new ClusterStatement.Create(t.definition(t.table(), g.artifact().columns(),
                new GenerationMarker("initial", g.operationId()))));
        DdlSteps.await(env, "the first target create", () -> env.members().values().stream()
            .allMatch(m -> m.table(t.database(), t.table()).isPresent()));
    }
}
