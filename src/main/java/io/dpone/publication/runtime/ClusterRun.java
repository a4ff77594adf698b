package io.dpone.publication.runtime;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import java.time.Instant;
import java.util.List;

/**
 * What one cluster publication run did: the protocol's outcome and receipt ({@code publication}), its blockers and
 * times. The route layer turns it into the run report; the live certification reads it directly.
 */
public record ClusterRun(String runId, String pipeline, String sourceTable, String targetTable, Instant startedAt,
                         Instant finishedAt, ClusterPublicationResult publication, List<Blocker> blockers) {
    public ClusterRun {
        blockers = List.copyOf(blockers);
    }

    /** Committed, and nothing but outstanding cleanup reported: the receipt is valid and the blocker says what remains. */
    public boolean passed() {
        return publication.committed() && blockers.stream()
            .allMatch(b -> b.code().equals(BlockerCode.PUBLICATION_CLEANUP_INCOMPLETE.code()));
    }

    /** Rows in the sealed artifact (0 before a receipt). */
    public long rows() {
        return publication.receipt() == null ? 0 : publication.receipt().artifact().rows();
    }

    /** Bytes of the sealed artifact (0 before a receipt). */
    public long bytes() {
        return publication.receipt() == null ? 0 : publication.receipt().artifact().bytes();
    }
}
