package io.dpone.publication.certify;

import io.dpone.error.Blocker;
import io.dpone.publication.runtime.ClusterPublicationResult;
import java.time.Instant;
import java.util.List;

/**
 * Live certification evidence ({@value #SCHEMA}): the only document that may say {@code PASS}. Written only for an
 * explicitly approved environment, after the protocol ran against the live cluster and every invariant held on
 * every member. {@code environment} is the approved environment's name and {@code buildCommit} the commit the
 * running build was made from ({@link io.dpone.report.BuildInfo}: baked into the jar at build time).
 */
public record PublicationCertification(String schema, String evidenceScope, String evidenceStatus, String environment,
                                       String buildCommit, String runId, ClusterPublicationResult publication,
                                       List<CertificationCheck> checks, List<Blocker> blockers, Instant certifiedAt) {
    public static final String SCHEMA = "dpone.clickhouse.cluster-publication-certification.v1";

    public PublicationCertification {
        checks = List.copyOf(checks);
        blockers = List.copyOf(blockers);
    }

    public boolean passed() {
        return "PASS".equals(evidenceStatus);
    }
}
