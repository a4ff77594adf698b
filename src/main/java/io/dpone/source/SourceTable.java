package io.dpone.source;

import io.dpone.manifest.TableRef;
import java.util.List;

/**
 * A described source table: its columns in read order, its primary key columns, and the tally of values its
 * declared value policies changed (shared by every cursor of the read, so parallel readers add to one count).
 */
public record SourceTable(TableRef ref, List<SourceColumn> columns, List<String> primaryKey, PolicyTally tally) {
    public SourceTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        tally = tally == null ? new PolicyTally(columns.size()) : tally;
    }

    public SourceTable(TableRef ref, List<SourceColumn> columns, List<String> primaryKey) {
        this(ref, columns, primaryKey, null);
    }
}
