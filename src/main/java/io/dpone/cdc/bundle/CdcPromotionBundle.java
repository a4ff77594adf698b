package io.dpone.cdc.bundle;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dpone.error.Blocker;
import java.util.List;
import java.util.Map;

/**
 * The CDC promotion bundle of one live stream ({@code dpone.cdc_promotion_bundle.v1}): the stream configuration
 * {@code cdc-runtime-run --mode live} and {@code serve} run, every check with its status, the captured columns with
 * their mapping and value policy, the blockers of the failed checks, the source facts that must not drift, and
 * {@code digest}: SHA-256 over the canonical JSON of {@code {"stream": stream, "source": source}}.
 *
 * <p>A multi-table stream ({@code --table}) has {@code tables}: one {@link TableBundle} per table, in the stream's
 * order, with that table's checks, columns, source facts, blockers and digest; its {@code stream} names the tables
 * ({@code stream.tables}), its {@code checks} are the stream's own ({@code stream_options}, {@code source_reachable},
 * {@code cleanup_retention}, {@code sink_reachable}, {@code sink_privileges}, {@code offset_store}), its
 * {@code columns} are empty, its {@code source} is {@code {"backend": ..., "tables":
 * {"schema.table": facts, ...}}} (sorted by table) and its {@code blockers} are every blocker, the stream's then each
 * table's (each with {@code details.table}). A single-table stream has no {@code tables} field: its document is the
 * one it was before multi-table bundles existed, and so is its digest.
 *
 * @param passed every check passed (no blocker)
 * @param source the facts the digest pins: backend, capture instance, captured columns with their types, primary
 *               key and unique keys; null when the source could not be read
 * @param tables a multi-table stream's tables; null (absent from the JSON) for a single-table stream
 */
public record CdcPromotionBundle(String schema, boolean passed, Map<String, Object> stream, List<Check> checks,
                                 List<ColumnVerdict> columns, Map<String, Object> source,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) List<TableBundle> tables,
                                 List<Blocker> blockers, String digest) {
    public static final String SCHEMA = "dpone.cdc_promotion_bundle.v1";
    public static final String JSON_FILE = "cdc_promotion_bundle.json";
    public static final String MARKDOWN_FILE = "cdc_promotion_bundle.md";
    public static final String APPROVAL_FILE = "approval.json";

    public CdcPromotionBundle {
        checks = List.copyOf(checks);
        columns = List.copyOf(columns);
        blockers = List.copyOf(blockers);
        tables = tables == null ? null : List.copyOf(tables);
    }

    /**
     * One table of a multi-table stream: its configuration (as {@code --table} names it, with its capture instance),
     * whether its checks passed, its checks ({@code source_table}, {@code capture_enabled},
     * {@code source_permissions}, {@code unique_keys}, {@code column_types}, {@code sink_log},
     * {@code serving_target}), its columns, its source facts (null when unread), its blockers, and {@code digest}:
     * SHA-256 over the canonical JSON of {@code {"stream": the table's configuration, "source": its facts}}, which an
     * approval records so that a drift names the table.
     *
     * @param table {@code schema.table}
     */
    public record TableBundle(String table, @JsonProperty("source_schema") String sourceSchema,
                              @JsonProperty("source_table") String sourceTable,
                              @JsonProperty("target_dataset") String targetDataset,
                              @JsonProperty("unique_keys") List<String> uniqueKeys,
                              @JsonProperty("capture_instance") String captureInstance, boolean passed,
                              List<Check> checks, List<ColumnVerdict> columns, Map<String, Object> source,
                              List<Blocker> blockers, String digest) {
        public TableBundle {
            uniqueKeys = List.copyOf(uniqueKeys);
            checks = List.copyOf(checks);
            columns = List.copyOf(columns);
            blockers = List.copyOf(blockers);
        }
    }

    /** {@code schema.table} to its digest, for a multi-table stream; empty for a single-table stream. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public Map<String, String> tableDigests() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (tables != null) {
            tables.forEach(t -> out.put(t.table(), t.digest()));
        }
        return out;
    }

    /** Status of one check: {@code passed}, {@code failed}, or {@code skipped} (an earlier check it needs failed). */
    public enum Status { passed, failed, skipped }

    /** One check: its id ({@code source_reachable}, {@code capture_enabled}, ...), status and what it found. */
    public record Check(String id, Status status, String detail) {
    }

    /**
     * One captured column: its SQL Server type, nullability, whether it is a unique-key column, the verdict
     * ({@code mapped}, {@code converted}: read through a server-side conversion, {@code refused}), the ClickHouse
     * columns it becomes and the value policy in force.
     */
    public record ColumnVerdict(String name, @JsonProperty("source_type") String sourceType, boolean nullable,
                                boolean key, String verdict, List<Map<String, String>> clickhouse, String policy,
                                @JsonProperty("blocker_code") String blockerCode) {
    }
}
