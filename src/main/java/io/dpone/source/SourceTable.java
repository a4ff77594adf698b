package io.dpone.source;

import io.dpone.manifest.TableRef;
import java.util.List;

/** A described source table: its columns in read order and its primary key columns. */
public record SourceTable(TableRef ref, List<SourceColumn> columns, List<String> primaryKey) {
    public SourceTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
    }
}
