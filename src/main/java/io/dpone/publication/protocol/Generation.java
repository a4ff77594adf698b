package io.dpone.publication.protocol;

import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.artifact.SealedArtifact;

/** One logical generation being published: its id, the sealed artifact, and the owned candidate's name. */
record Generation(String id, String operationId, SealedArtifact artifact, String candidate) {
    GenerationMarker marker() {
        return new GenerationMarker(id, operationId);
    }
}
