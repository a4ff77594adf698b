package io.dpone.publication.protocol;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.SealedArtifact;
import java.util.List;
import java.util.Map;

/**
 * The cluster full-refresh publication protocol (see {@code docs/publication.md} for the state machine):
 * fence → seal → stage every member → READY barrier → record and send the publication DDL once → reconcile →
 * durable receipt → advance source state → exact predecessor cleanup. Every run, first or resumed, starts
 * from the authority record and member evidence, never from memory, so the same run id resumes the exact
 * incomplete phase. Every write after the fence is checked against it ({@link FencedWrites}).
 */
public final class ClusterPublication {
    private final PublicationEnvironment unfenced;
    private PublicationEnvironment env;

    public ClusterPublication(PublicationEnvironment env) {
        this.unfenced = env;
        this.env = env;
    }

    public PublicationOutcome run() {
        AuthorityCursor cursor;
        try {
            cursor = AuthorityCursor.acquire(unfenced.authority(), unfenced.target().targetKey(),
                unfenced.operationId(), unfenced.inventory().digest());
        } catch (DponeException e) {
            return new PublicationOutcome(false, null, null, null, false, e.blockers());
        }
        env = FencedWrites.around(unfenced, cursor);
        Phase foundAt = cursor.foundAt();
        try {
            if (cursor.record().phase() == Phase.RELEASED) {
                // our own earlier attempt gave up before touching a member: take the fence again and start over
                cursor.advance(FenceRecord.fenced(env.operationId(), env.inventory().digest()));
            }
            bindInventory(cursor);
            Generation g = seal(cursor);
            if (cursor.record().phase() == Phase.SEALED) {
                cursor.advance(cursor.record().ready(CandidateStaging.of(env.target().mode()).stage(env, g)));
            }
            if (cursor.record().phase() == Phase.READY) {
                barrier(cursor, g);
                cursor.advance(cursor.record().ddlRecorded(
                    OperationIds.ddlQuery(env.operationId(), g.id(), "exchange"), env.clock().now()));
                PublicationReconciler.reconcile(env, cursor.record(), g, true);
                return commitAndClean(cursor, g, foundAt);
            }
            if (cursor.record().phase() == Phase.DDL_RECORDED && env.receipts().find(env.operationId()).isEmpty()) {
                // with a receipt the members converged already; what changed on them since is cleanup's to settle
                PublicationReconciler.reconcile(env, cursor.record(), g, false);
            }
            return commitAndClean(cursor, g, foundAt);
        } catch (DponeException e) {
            return blocked(cursor, foundAt, e.blockers());
        } catch (MemberUnavailableException e) {
            return blocked(cursor, foundAt, List.of(Blocker.of(BlockerCode.PUBLICATION_MEMBER_UNREACHABLE,
                e.member().value(), "a required member did not answer; rerun with the same run id")));
        }
    }

    /**
     * Holds a resume to the inventory it was fenced with. The admitted digest (ordered member ids and the resolved
     * endpoint set) must equal the recorded one from {@link Phase#SEALED} on, since a member may have been touched;
     * a {@link Phase#FENCED} record (nothing touched a member) is re-bound to the admitted digest. A record written
     * before the digest was kept has none: it adopts the admitted digest with one version-checked write and relies,
     * for that resume, on the generation's member-id binding alone. A resolved record is never rewritten.
     */
    private void bindInventory(AuthorityCursor cursor) {
        FenceRecord r = cursor.record();
        String admitted = env.inventory().digest();
        if (admitted.equals(r.inventoryDigest()) || r.phase().resolved()) {
            return;
        }
        if (r.inventoryDigest() == null || r.phase() == Phase.FENCED) {
            cursor.advance(r.withInventoryDigest(admitted));
            return;
        }
        throw new DponeException(Blocker.of(BlockerCode.PUBLICATION_INVENTORY_CHANGED, "cluster",
            "the admitted inventory digest differs from the one this operation was fenced with: a member was added,"
                + " removed or now resolves to another endpoint; restore the mapping and resume, or see the runbook",
            Map.of("recorded_inventory_digest", r.inventoryDigest(), "admitted_inventory_digest", admitted,
                "phase", r.phase().name())));
    }

    /** Seals (or finds and verifies) the artifact and binds the logical generation. */
    private Generation seal(AuthorityCursor cursor) {
        FenceRecord r = cursor.record();
        List<MemberId> members = env.inventory().members();
        if (r.phase() == Phase.FENCED) {
            SealedArtifact a;
            try {
                a = env.artifacts().find(env.operationId())
                    .orElseGet(() -> env.artifacts().seal(env.operationId(), env.extraction()));
                Long budget = env.target().rowBudget();
                if (env.target().mode() == PublicationMode.EXTERNAL && budget != null && a.rows() > budget) {
                    throw new DponeException(BlockerCode.PUBLICATION_EXTERNAL_ROW_BUDGET_EXCEEDED,
                        "sink.options.physical_design.storage.clickhouse.cluster.external_content_row_budget",
                        "the artifact holds more rows than the external content row budget");
                }
            } catch (DponeException e) {
                // nothing has touched a member yet: resolve our own fence so the target is not held hostage
                cursor.advance(r.withPhase(Phase.RELEASED));
                throw e;
            }
            String gen = OperationIds.generation(a.sha256(), a.schemaDigest(), members);
            cursor.advance(r.sealed(gen, a.sha256(), a.rows()));
            return new Generation(gen, env.operationId(), a, env.target().candidateName(gen));
        }
        SealedArtifact a = env.artifacts().find(env.operationId()).orElseThrow(() -> new DponeException(
            BlockerCode.PUBLICATION_ARTIFACT_MISSING, "artifact_store", "the sealed artifact is not in the store"));
        if (!a.sha256().equals(r.artifactSha256())) {
            throw new DponeException(BlockerCode.PUBLICATION_ARTIFACT_CORRUPT, "artifact_store",
                "the stored artifact is not the one the authority recorded");
        }
        String gen = OperationIds.generation(a.sha256(), a.schemaDigest(), members);
        if (!gen.equals(r.generationId())) {
            throw new DponeException(BlockerCode.PUBLICATION_INVENTORY_CHANGED, "cluster",
                "the admitted members differ from those the generation was bound to");
        }
        return new Generation(gen, env.operationId(), a, env.target().candidateName(gen));
    }

    /** Re-verifies the barrier before the DDL is recorded; unpublished candidates that lost it are rebuilt. */
    private void barrier(AuthorityCursor cursor, Generation g) {
        if (ReadyBarrier.notReady(env, g, cursor.record().members()).isEmpty()) {
            return;
        }
        Map<MemberId, FenceRecord.MemberRecord> restaged = CandidateStaging.of(env.target().mode()).stage(env, g);
        cursor.advance(cursor.record().ready(restaged));
        List<MemberId> failing = ReadyBarrier.notReady(env, g, cursor.record().members());
        if (!failing.isEmpty()) {
            throw new DponeException(BlockerCode.PUBLICATION_BARRIER_FAILED, failing.get(0).value(),
                "not every member holds a READY candidate for the generation");
        }
    }

    private PublicationOutcome commitAndClean(AuthorityCursor cursor, Generation g, Phase foundAt) {
        Receipt receipt = env.receipts().find(env.operationId()).orElse(null);
        if (receipt == null) {
            // converged (reconciled above, or recorded as COMMITTED by an earlier attempt): write it durably
            receipt = ReceiptBuilder.build(env, cursor.record(), g);
            env.receipts().write(receipt);
        }
        if (cursor.record().phase() == Phase.DDL_RECORDED) {
            cursor.advance(cursor.record().withPhase(Phase.COMMITTED));
        }
        env.sourceState().advance(receipt);
        if (cursor.record().phase() == Phase.COMMITTED) {
            List<MemberId> outstanding = PredecessorCleanup.run(env, cursor.record(), g);
            if (!outstanding.isEmpty()) {
                return new PublicationOutcome(true, Phase.COMMITTED, foundAt, receipt, false,
                    List.of(Blocker.of(BlockerCode.PUBLICATION_CLEANUP_INCOMPLETE, outstanding.get(0).value(),
                        "a predecessor is still present; rerun with the same run id to finish cleanup",
                        Map.of("outstanding_members", outstanding.stream().map(MemberId::value).toList()))));
            }
            cursor.advance(cursor.record().withPhase(Phase.CLEANED));
        }
        return new PublicationOutcome(true, cursor.record().phase(), foundAt, receipt, true, List.of());
    }

    private static PublicationOutcome blocked(AuthorityCursor cursor, Phase foundAt, List<Blocker> blockers) {
        return new PublicationOutcome(false, cursor.record().phase(), foundAt, null, false, blockers);
    }
}
