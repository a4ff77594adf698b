package io.dpone.publication.protocol;

import io.dpone.error.Blocker;
import java.util.List;

/**
 * How a run ended. {@code committed} only with a durable receipt. {@code cleanupComplete} false after a commit
 * means some predecessor is still present and the same run id will finish it. {@code phase} is the authority
 * phase reached, {@code resumedFrom} the phase found at start (null for a fresh operation).
 */
public record PublicationOutcome(boolean committed, Phase phase, Phase resumedFrom, Receipt receipt,
                                 boolean cleanupComplete, List<Blocker> blockers) {
    public PublicationOutcome {
        blockers = List.copyOf(blockers);
    }
}
