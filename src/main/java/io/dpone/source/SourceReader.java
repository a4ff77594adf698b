package io.dpone.source;

import io.dpone.manifest.TableRef;
import java.util.List;

/** Reads a snapshot of one source table. Implementations: {@link JdbcSourceReader} (SQL Server, H2 stand-in). */
public interface SourceReader extends AutoCloseable {
    /** Describes {@code table}, restricted to {@code columns} when non-empty, in that order. */
    SourceTable describe(TableRef table, List<String> columns);

    /** Opens a streaming cursor over every row of {@code table}. */
    RowCursor open(SourceTable table, int fetchSize);

    @Override
    void close();
}
