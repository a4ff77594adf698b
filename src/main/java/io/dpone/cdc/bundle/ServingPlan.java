package io.dpone.cdc.bundle;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a stream's CDC logs are materialized, as {@code serve}'s {@code cdc_streams[].materialize} or the bundle's
 * {@code --materialize-*} options name it: the {@code serving_target} check's input. Checked, not pinned in the
 * digest.
 *
 * @param mode           {@code rebuild} or {@code incremental} (as typed: the check says when it is neither)
 * @param deleteMode     {@code exclude_deleted} or {@code tombstone}; null: {@code exclude_deleted}
 * @param target         a single-table stream's serving target {@code db.table}; null for a multi-table stream
 * @param tableTargets   a multi-table stream's serving target per table ({@code schema.table} to {@code db.table})
 * @param targetTemplate a multi-table stream's targets as {@code DB.NAME} with {@code {schema}} and {@code {table}}
 *                       replaced (null when not used; when set, it names every table's target)
 */
public record ServingPlan(String mode, String deleteMode, String target, Map<String, String> tableTargets,
                          String targetTemplate) {
    public ServingPlan {
        tableTargets = tableTargets == null ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(tableTargets));
    }

    /** The serving target of table {@code schema.table} of the stream, null when it has none (as serve forms it). */
    String targetOf(String schema, String table, boolean multiTable) {
        if (!multiTable) {
            return target;
        }
        if (targetTemplate != null) {
            return io.dpone.cdc.runtime.TableSelections.target(targetTemplate, schema, table);
        }
        return tableTargets.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(schema + "." + table))
            .map(Map.Entry::getValue).findFirst().orElse(null);
    }
}
