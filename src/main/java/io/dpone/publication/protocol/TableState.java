package io.dpone.publication.protocol;

import io.dpone.publication.artifact.GenerationMarker;
import java.util.UUID;

/**
 * What a member reports about one table: its UUID (the only identity dpone trusts for drop and exchange
 * evidence), engine name, comment (which carries the generation marker of tables dpone owns) and row count.
 */
public record TableState(UUID uuid, String engine, String comment, long rows) {
    /** The generation marker in the comment, or null when the table carries none. */
    public GenerationMarker marker() {
        return GenerationMarker.parse(comment);
    }
}
