package io.dpone.publication.protocol;

import io.dpone.publication.MemberId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds the COMMITTED receipt from the authority record and each member's observed target. */
final class ReceiptBuilder {
    static final String EVIDENCE_SCOPE = "runtime";
    static final String EVIDENCE_STATUS = "UNVERIFIED";

    private ReceiptBuilder() {
    }

    static Receipt build(PublicationEnvironment env, FenceRecord record, Generation g) {
        PublicationTarget t = env.target();
        List<Receipt.Member> members = new ArrayList<>();
        for (Map.Entry<MemberId, ClusterMember> e : env.members().entrySet()) {
            TableState target = e.getValue().table(t.database(), t.table()).orElseThrow();
            members.add(new Receipt.Member(e.getKey().value(), target.uuid().toString(),
                target.marker() == null ? null : target.marker().generationId(), target.rows()));
        }
        var a = g.artifact();
        return new Receipt(t.mode().receiptSchema(), EVIDENCE_SCOPE, EVIDENCE_STATUS, "COMMITTED", env.runId(),
            env.operationId(), g.id(), t.mode().mode(), t.mode().replicationMode(), t.cluster(),
            t.database() + "." + t.table(), env.inventory().digest(),
            new Receipt.Artifact(a.sha256(), a.schemaDigest(), a.bytes(), a.rows()), members, record.ddlQueryId(),
            env.clock().now());
    }
}
