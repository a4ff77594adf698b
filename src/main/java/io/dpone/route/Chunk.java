package io.dpone.route;

import java.nio.file.Path;

/** One spooled chunk of encoded rows: what a Camel exchange carries through the split. */
public record Chunk(int index, Path file, long rows, long bytes, GrowingFileUpload streamed) {
    /** A chunk that waits in the spool for its load or upload. */
    public Chunk(int index, Path file, long rows, long bytes) {
        this(index, file, rows, bytes, null);
    }

}
