package io.dpone.source;

import io.dpone.manifest.TableRef;
import java.util.List;

/** Reads a snapshot of one source table. Implementations: {@link JdbcSourceReader} (SQL Server, H2 stand-in). */
public interface SourceReader extends AutoCloseable {
    /** Describes {@code table}, restricted to {@code columns} when non-empty, in that order. */
    SourceTable describe(TableRef table, List<String> columns);

    /**
     * Opens a streaming cursor over the rows of {@code table}: all of them when {@code rowLimit} is 0, else the
     * first {@code rowLimit} in primary-key order (a deterministic sample for certification scenarios).
     */
    RowCursor open(SourceTable table, int fetchSize, long rowLimit);

    @Override
    void close();
}
