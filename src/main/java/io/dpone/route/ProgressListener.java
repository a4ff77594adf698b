package io.dpone.route;

/**
 * Receives a load's progress as it happens (the CLI's progress display, serve's in-flight metrics): the running row
 * count of the source read, the source's estimated row count when it is known, and each chunk that landed. Called from
 * the route's threads; implementations are quick and thread-safe.
 */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = rows -> { };

    /** The rows read from the source so far. */
    void rowsRead(long rows);

    /** The rows the run expects to read (the source's estimate, capped by a row limit), before the first row. */
    default void rowsExpected(long rows) {
    }

    /** A chunk landed (in staging, or in object storage for the routes that pull later); {@code chunks} so far. */
    default void chunkDone(int chunks) {
    }

    /** The route entered step {@code step} (its id without the route prefix, e.g. {@code load_chunk}). */
    default void phase(String step) {
    }

    /**
     * The source table was described, before the first row: its columns in read order with their SQL Server and
     * ClickHouse types (serve's lineage events carry them as schema facets and column lineage).
     */
    default void described(io.dpone.source.SourceTable table) {
    }
}
