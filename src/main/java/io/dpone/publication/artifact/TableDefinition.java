package io.dpone.publication.artifact;

import java.util.List;

/**
 * A table dpone creates on a member (a candidate, or an empty first target): columns with ClickHouse types, the
 * engine family ({@code MergeTree}, {@code ReplicatedMergeTree}, ...; replicated engines take the server's
 * default replication path), the sort key and the generation marker written as the table comment. Adapters
 * render it with quoted identifiers; nothing here is spliced raw.
 */
public record TableDefinition(String database, String name, List<Column> columns, String engine,
                              List<String> orderBy, GenerationMarker marker) {
    public TableDefinition {
        columns = List.copyOf(columns);
        orderBy = List.copyOf(orderBy);
    }

    /** One column: name and ClickHouse type text (from the source type mapping). */
    public record Column(String name, String type) {
    }

    public TableDefinition renamed(String newName, GenerationMarker newMarker) {
        return new TableDefinition(database, newName, columns, engine, orderBy, newMarker);
    }
}
