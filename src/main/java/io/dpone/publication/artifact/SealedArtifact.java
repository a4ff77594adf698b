package io.dpone.publication.artifact;

import java.util.List;

/**
 * One immutable, replayable extraction of the source: its SHA-256, schema identity (digest of the ordered
 * column names and types), byte size, row count and columns. The file itself stays inside the artifact store;
 * only these facts travel (no local path ever appears in output).
 */
public record SealedArtifact(String operationId, String sha256, String schemaDigest, long bytes, long rows,
                             List<TableDefinition.Column> columns, String format) {
    public SealedArtifact {
        columns = List.copyOf(columns);
    }

    /** The schema identity of an ordered column list. */
    public static String schemaDigest(List<TableDefinition.Column> columns) {
        StringBuilder sb = new StringBuilder();
        columns.forEach(c -> sb.append(c.name()).append(' ').append(c.type()).append('\n'));
        return io.dpone.publication.MemberId.Digests.sha256Hex(sb.toString());
    }
}
