package io.dpone.cdc.bundle;

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
 * @param passed every check passed (no blocker)
 * @param source the facts the digest pins: backend, capture instance, captured columns with their types, primary
 *               key and unique keys; null when the source could not be read
 */
public record CdcPromotionBundle(String schema, boolean passed, Map<String, Object> stream, List<Check> checks,
                                 List<ColumnVerdict> columns, Map<String, Object> source, List<Blocker> blockers,
                                 String digest) {
    public static final String SCHEMA = "dpone.cdc_promotion_bundle.v1";
    public static final String JSON_FILE = "cdc_promotion_bundle.json";
    public static final String MARKDOWN_FILE = "cdc_promotion_bundle.md";
    public static final String APPROVAL_FILE = "approval.json";

    public CdcPromotionBundle {
        checks = List.copyOf(checks);
        columns = List.copyOf(columns);
        blockers = List.copyOf(blockers);
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
