package io.dpone.publication.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.InMemoryAuthority;
import io.dpone.publication.MemberId;
import io.dpone.publication.admission.ClusterInventory;
import io.dpone.publication.artifact.ArtifactExtraction;
import io.dpone.publication.artifact.ArtifactStore;
import io.dpone.publication.artifact.SealedArtifact;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The fence record keeps the admitted inventory digest (ordered member ids and the resolved endpoint set): a resume
 * admitted with another digest (an endpoint remapped) is refused once a member may have been touched, re-bound while
 * nothing was, and a record written before the digest was kept adopts the admitted one. No member is touched by any
 * of these runs: every member call fails the test.
 */
class InventoryDigestResumeTest {
    static final MemberId A = MemberId.of("c", "a", 9000);
    static final MemberId B = MemberId.of("c", "b", 9000);
    static final PublicationTarget TARGET = new PublicationTarget(PublicationMode.EXTERNAL, "c", "db", "items",
        "MergeTree", List.of("id"), null);
    static final String OP = "op-digest";

    /** No artifact was sealed, and sealing one fails: the run stops before any member. */
    static final ArtifactStore NO_ARTIFACT = new ArtifactStore() {
        @Override
        public Optional<SealedArtifact> find(String operationId) {
            return Optional.empty();
        }

        @Override
        public SealedArtifact seal(String operationId, ArtifactExtraction extraction) {
            throw new DponeException(BlockerCode.PUBLICATION_ARTIFACT_WRITE_FAILED, "artifact_store", "disk full");
        }

        @Override
        public Path open(SealedArtifact artifact) {
            throw new AssertionError("nothing is loaded");
        }
    };

    static PublicationOutcome resume(InMemoryAuthority authority, String digest) {
        Map<MemberId, ClusterMember> members = new LinkedHashMap<>();
        members.put(A, ReconcilerQueueRetentionTest.untouchable());
        members.put(B, ReconcilerQueueRetentionTest.untouchable());
        PublicationEnvironment env = new PublicationEnvironment("run", OP, TARGET,
            new ClusterInventory("c", List.of(A, B), false, digest), members, null, authority, NO_ARTIFACT, null,
            null, null, PublicationClock.SYSTEM, PublicationSettings.DEFAULTS);
        return new ClusterPublication(env).run();
    }

    static FenceRecord stored(InMemoryAuthority authority) {
        return authority.read(TARGET.targetKey()).orElseThrow().record();
    }

    @Test
    void aFreshFenceCarriesTheAdmittedDigest() {
        InMemoryAuthority authority = new InMemoryAuthority();
        PublicationOutcome o = resume(authority, "inv-one");
        assertEquals(List.of("publication.artifact_write_failed"), codes(o));
        assertEquals(Phase.RELEASED, stored(authority).phase());
        assertEquals("inv-one", stored(authority).inventoryDigest());
    }

    @Test
    void aResumeWithARemappedEndpointIsRefusedOnceAMemberMayHaveBeenTouched() {
        for (Phase phase : List.of(Phase.SEALED, Phase.READY, Phase.DDL_RECORDED, Phase.COMMITTED)) {
            InMemoryAuthority authority = new InMemoryAuthority();
            authority.create(TARGET.targetKey(), FenceRecord.fenced(OP, "inv-before").sealed("g-1", "ab".repeat(32), 3)
                .withPhase(phase));
            PublicationOutcome o = resume(authority, "inv-after");
            assertFalse(o.committed());
            assertEquals(List.of(BlockerCode.PUBLICATION_INVENTORY_CHANGED.code()), codes(o), phase.name());
            Map<String, Object> details = o.blockers().get(0).details();
            assertEquals("inv-before", details.get("recorded_inventory_digest"));
            assertEquals("inv-after", details.get("admitted_inventory_digest"));
            assertEquals(phase, stored(authority).phase(), "the record is left as it was");
            assertEquals("inv-before", stored(authority).inventoryDigest());
        }
    }

    @Test
    void aFencedRecordIsReboundBecauseNothingTouchedAMember() {
        InMemoryAuthority authority = new InMemoryAuthority();
        authority.create(TARGET.targetKey(), FenceRecord.fenced(OP, "inv-before"));
        PublicationOutcome o = resume(authority, "inv-after");
        assertEquals(List.of("publication.artifact_write_failed"), codes(o), "it went on to seal");
        assertEquals("inv-after", stored(authority).inventoryDigest());
    }

    @Test
    void aRecordWrittenBeforeTheDigestWasKeptAdoptsTheAdmittedOne() {
        InMemoryAuthority authority = new InMemoryAuthority();
        FenceRecord legacy = new FenceRecord(OP, Phase.SEALED, "g-1", "ab".repeat(32), 3, Map.of(), null, null);
        assertNull(legacy.inventoryDigest());
        authority.create(TARGET.targetKey(), legacy);
        PublicationOutcome o = resume(authority, "inv-now");
        assertEquals(List.of("publication.artifact_missing"), codes(o), "not inventory_changed: it went on to seal");
        assertEquals("inv-now", stored(authority).inventoryDigest());
        assertEquals(List.of(BlockerCode.PUBLICATION_INVENTORY_CHANGED.code()), codes(resume(authority, "inv-other")),
            "from then on the adopted digest holds");
    }

    @Test
    void aResolvedRecordIsNeverRewritten() {
        InMemoryAuthority authority = new InMemoryAuthority();
        FenceRecord cleaned = FenceRecord.fenced(OP, "inv-before").withPhase(Phase.CLEANED);
        authority.create(TARGET.targetKey(), cleaned);
        long version = authority.read(TARGET.targetKey()).orElseThrow().version();
        resume(authority, "inv-after");
        // the resume's takeover rewrites the record unchanged, one version on (AuthorityCursor); nothing else
        assertEquals(version + 1, authority.read(TARGET.targetKey()).orElseThrow().version());
        assertEquals(cleaned, stored(authority));
        assertEquals("inv-before", stored(authority).inventoryDigest());
    }

    static List<String> codes(PublicationOutcome o) {
        return o.blockers().stream().map(b -> b.code()).toList();
    }

}
