package io.dpone.publication.plan;

import io.dpone.error.Blocker;
import java.util.List;

/**
 * The publication decision {@code dpone plan} renders (spec fields first). {@code runtime_admission_required} is
 * always true for a cluster publication: a static plan cannot prove inventory, grants, Keeper state or member
 * connectivity. {@code no_fallback}: a requested cluster publication never falls back to local publication.
 * {@code artifact_store} says only {@code configured} or {@code missing}, never the path.
 */
public record PublicationDecision(boolean requested, boolean selected, String mode, String replicationMode,
                                  boolean runtimeAdmissionRequired, boolean noFallback, String cluster,
                                  String engine, String ddlScope, Long externalContentRowBudget,
                                  String artifactStore, List<Blocker> blockers) {
    public PublicationDecision {
        blockers = List.copyOf(blockers);
    }

    /** The decision for a manifest that requests no cluster publication. */
    static PublicationDecision local() {
        return new PublicationDecision(false, false, "local", null, false, false, null, null, null, null, null,
            List.of());
    }
}
