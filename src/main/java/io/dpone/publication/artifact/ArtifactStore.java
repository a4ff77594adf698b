package io.dpone.publication.artifact;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The durable artifact store (an absolute path on worker storage; {@code DPONE_EXTERNAL_ARTIFACT_STORE} or
 * {@code sink.options.external_artifact_store_path}). An artifact is sealed once per operation, read-only, and
 * verified against its recorded SHA-256 every time it is replayed.
 */
public interface ArtifactStore {

    /** The operation's sealed artifact, verified; empty when none was sealed. Throws when it no longer
     * matches its seal ({@code publication.artifact_corrupt}). */
    Optional<SealedArtifact> find(String operationId);

    /** Extracts through {@code extraction} into a temp file, fsyncs, renames it into place read-only, records
     * its facts, and returns them. Re-sealing an operation that already has an artifact returns that one. */
    SealedArtifact seal(String operationId, ArtifactExtraction extraction);

    /** The verified file of a sealed artifact, for loading. */
    Path open(SealedArtifact artifact);
}
