package io.dpone.cdc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which stream a tick, a checkpoint and a sink belong to. Two identities are the same stream only if every field
 * is equal; a checkpoint written for another identity is refused.
 *
 * <p>A stream of several tables ({@link #multi}) names its {@code tables}, each the identity of one table's lane
 * (the same pipeline and backend, its source table, its CDC log and its unique keys); its own source table, target
 * dataset and unique keys are null and empty. A single-table stream has no {@code tables}, and its map and id are
 * exactly as they were before multi-table streams existed.
 */
public record StreamIdentity(String pipelineName, String backend, String sourceSchema, String sourceTable,
                             String targetDataset, List<String> uniqueKeys,
                             @com.fasterxml.jackson.annotation.JsonInclude(
                                 com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                             List<StreamIdentity> tables) {
    public StreamIdentity {
        uniqueKeys = List.copyOf(uniqueKeys);
        tables = tables == null ? List.of() : List.copyOf(tables);
    }

    /** A single-table stream. */
    public StreamIdentity(String pipelineName, String backend, String sourceSchema, String sourceTable,
                          String targetDataset, List<String> uniqueKeys) {
        this(pipelineName, backend, sourceSchema, sourceTable, targetDataset, uniqueKeys, List.of());
    }

    /** A stream of several tables: {@code tables} are the lanes' single-table identities, in the stream's order. */
    public static StreamIdentity multi(String pipelineName, String backend, List<StreamIdentity> tables) {
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("a multi-table stream names at least one table");
        }
        return new StreamIdentity(pipelineName, backend, null, null, null, List.of(), tables);
    }

    /** True for a stream of several tables. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isMulti() {
        return !tables.isEmpty();
    }

    /** Snake-case fields in a stable order (checkpoint, sink rows and report use this shape). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("pipeline_name", pipelineName);
        m.put("backend", backend);
        if (isMulti()) {
            List<Map<String, Object>> lanes = tables.stream().map(t -> {
                Map<String, Object> lane = new LinkedHashMap<>();
                lane.put("source_schema", t.sourceSchema());
                lane.put("source_table", t.sourceTable());
                lane.put("target_dataset", t.targetDataset());
                lane.put("unique_keys", t.uniqueKeys());
                return lane;
            }).toList();
            m.put("tables", lanes);
            return m;
        }
        m.put("source_schema", sourceSchema);
        m.put("source_table", sourceTable);
        m.put("target_dataset", targetDataset);
        m.put("unique_keys", uniqueKeys);
        return m;
    }

    /**
     * The first 32 hex digits of SHA-256 over the canonical JSON of {@link #toMap()}. A multi-table stream's id is
     * over its pipeline, backend and log database only ({@code {"pipeline_name", "backend", "log_database",
     * "tables": "per_table_state"}}): its tables may change while it runs (a table added to the list or matched by a
     * pattern), and its offset records each table's own identity and state instead (docs/cdc.md, "Many tables per
     * stream").
     */
    public String streamId() {
        if (isMulti()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pipeline_name", pipelineName);
            m.put("backend", backend);
            String dataset = tables.get(0).targetDataset();
            m.put("log_database", dataset == null || dataset.indexOf('.') < 0 ? dataset
                : dataset.substring(0, dataset.indexOf('.')));
            m.put("tables", "per_table_state");
            return CdcHashes.sha256Hex(CdcHashes.canonicalJson(m)).substring(0, 32);
        }
        return CdcHashes.sha256Hex(CdcHashes.canonicalJson(toMap())).substring(0, 32);
    }

    /** {@code schema.table}; for a multi-table stream its tables' names, comma-separated. */
    public String sourceTableName() {
        if (isMulti()) {
            return String.join(",", tables.stream().map(StreamIdentity::sourceTableName).toList());
        }
        return sourceSchema + "." + sourceTable;
    }

    /** True when a change of {@code schema.table} belongs to this stream (to one of its tables, when multi). */
    public boolean covers(String schema, String table) {
        if (isMulti()) {
            return tables.stream().anyMatch(t -> t.covers(schema, table));
        }
        return sourceSchema.equals(schema) && sourceTable.equals(table);
    }
}
