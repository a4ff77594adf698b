package io.dpone.cdc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which stream a tick, a checkpoint and a sink belong to. Two identities are the same stream only if every field
 * is equal; a checkpoint written for another identity is refused.
 */
public record StreamIdentity(String pipelineName, String backend, String sourceSchema, String sourceTable,
                             String targetDataset, List<String> uniqueKeys) {
    public StreamIdentity {
        uniqueKeys = List.copyOf(uniqueKeys);
    }

    /** Snake-case fields in a stable order (checkpoint, sink rows and report use this shape). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pipeline_name", pipelineName);
        m.put("backend", backend);
        m.put("source_schema", sourceSchema);
        m.put("source_table", sourceTable);
        m.put("target_dataset", targetDataset);
        m.put("unique_keys", uniqueKeys);
        return m;
    }

    /** The first 32 hex digits of SHA-256 over the canonical JSON of {@link #toMap()}. */
    public String streamId() {
        return CdcHashes.sha256Hex(CdcHashes.canonicalJson(toMap())).substring(0, 32);
    }

    public String sourceTableName() {
        return sourceSchema + "." + sourceTable;
    }
}
