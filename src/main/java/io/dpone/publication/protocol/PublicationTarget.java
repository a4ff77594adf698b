package io.dpone.publication.protocol;

import io.dpone.manifest.Identifier;
import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.artifact.TableDefinition;
import java.util.List;

/**
 * What one publication writes: the cluster, the target table, its engine and sort key, the mode and the
 * external row budget. The candidate lives in the target's database (the spec forbids anything else).
 */
public record PublicationTarget(PublicationMode mode, String cluster, String database, String table, String engine,
                                List<String> orderBy, Long rowBudget) {
    public PublicationTarget {
        identifier(cluster);
        identifier(database);
        identifier(table);
        orderBy = List.copyOf(orderBy);
        orderBy.forEach(PublicationTarget::identifier);
    }

    /** Every name here reaches ClickHouse quoted, so it must follow the identifier rule. */
    private static void identifier(String name) {
        if (!Identifier.valid(name)) {
            throw new IllegalArgumentException("invalid ClickHouse identifier");
        }
    }

    /** The authority key: one record per (cluster, database, table). */
    public String targetKey() {
        return "t-" + MemberId.Digests.sha256Hex(cluster + "\n" + database + "\n" + table).substring(0, 32);
    }

    /** The owned candidate's name for a generation (deterministic, so a resume finds it). */
    public String candidateName(String generationId) {
        String suffix = "__dpone_" + generationId.replace("-", "_");
        String base = table.length() + suffix.length() > 200 ? table.substring(0, 200 - suffix.length()) : table;
        return base + suffix;
    }

    /** The table definition of a candidate (or first empty target) with these columns. */
    public TableDefinition definition(String name, List<TableDefinition.Column> columns, GenerationMarker marker) {
        return new TableDefinition(database, name, columns, engine, orderBy, marker);
    }
}
