package io.dpone.cdc.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.CdcBatch;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcEvent;
import io.dpone.cdc.CdcOffset;
import io.dpone.cdc.CdcOperation;
import io.dpone.cdc.CdcPosition;
import io.dpone.cdc.CdcSourceReader;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import io.dpone.manifest.Identifier;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.SqlServerTypeNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the local events JSON ({@code high_watermark}, {@code next_offset}, {@code changes}, optional
 * {@code columns}) as one batch. Strict:
 * invalid UTF-8 or JSON is {@code cdc_runtime.events_unreadable}; an unknown or missing key, a wrong type, an
 * unknown operation, a position that is not hex/decimal, a unique-key column missing from {@code data}, or a
 * {@code dpone_cdc_} column is {@code cdc_runtime.events_invalid} with the field path as subject
 * ({@code changes[3].operation}). Every problem is collected; nothing is returned unless the whole file is valid.
 * The file is the exported batch: {@code from} is not used to filter (the idempotency service drops replays).
 */
public final class JsonEventsReader implements CdcSourceReader {
    public static final String RESERVED_PREFIX = "dpone_cdc_";
    private static final Set<String> TOP = Set.of("high_watermark", "next_offset", "changes", "columns");
    private static final Set<String> COLUMN = Set.of("name", "type", "nullable");
    private static final Set<String> OFFSET = Set.of("backend", "token", "snapshot_complete");
    private static final Set<String> CHANGE = Set.of("operation", "position", "sequence", "source_schema",
        "source_table", "data", "metadata");

    private final Path file;
    private final StreamIdentity stream;
    private final List<Blocker> problems = new ArrayList<>();

    public JsonEventsReader(Path file, StreamIdentity stream) {
        this.file = file;
        this.stream = stream;
    }

    @Override
    public CdcBatch readBatch(CdcOffset from, int maxEvents) {
        problems.clear();
        JsonNode root = StrictJson.read(file, CdcBlockers.EVENTS_UNREADABLE, "--events-json");
        if (!root.isObject()) {
            throw CdcBlockers.failure(CdcBlockers.EVENTS_INVALID, "$", "the events JSON must be an object");
        }
        unknownKeys(root, TOP, "");
        String highWatermark = optionalPosition(root, "high_watermark", "high_watermark");
        CdcOffset next = nextOffset(root.get("next_offset"));
        List<SourceColumn> columns = columns(root.get("columns"));
        List<CdcEvent> changes = new ArrayList<>();
        JsonNode list = root.get("changes");
        if (list == null) {
            problem("changes", "is required");
        } else if (!list.isArray()) {
            problem("changes", "must be an array");
        } else if (list.size() > maxEvents) {
            problem("changes", "holds " + list.size() + " changes; one tick reads at most " + maxEvents
                + ": export a smaller batch");
        } else {
            for (int i = 0; i < list.size(); i++) {
                CdcEvent e = change(list.get(i), "changes[" + i + "]");
                if (e != null) {
                    undeclared(e, columns, "changes[" + i + "].data.");
                    changes.add(e);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new DponeException(List.copyOf(problems));
        }
        return new CdcBatch(highWatermark, next, changes, columns);
    }

    /**
     * The optional {@code columns} block: the source table's payload columns with their SQL Server types
     * ({@code [{"name": "amount", "type": "decimal(10,2)", "nullable": true}]}, {@code nullable} defaults to true).
     * With it, the ClickHouse log and serving table are typed like a full refresh; without it (null or absent) the
     * payload stays JSON text.
     */
    private List<SourceColumn> columns(JsonNode n) {
        List<SourceColumn> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isArray() || n.isEmpty()) {
            problem("columns", "must be a non-empty array of {name, type, nullable}");
            return out;
        }
        Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < n.size(); i++) {
            String path = "columns[" + i + "]";
            JsonNode c = n.get(i);
            if (!c.isObject()) {
                problem(path, "must be an object {name, type, nullable}");
                continue;
            }
            unknownKeys(c, COLUMN, path + ".");
            String name = requiredText(c, "name", path + ".name");
            String type = requiredText(c, "type", path + ".type");
            JsonNode nullable = c.get("nullable");
            if (nullable != null && !nullable.isBoolean()) {
                problem(path + ".nullable", "must be true or false");
            }
            if (name != null && (!Identifier.PATTERN.matcher(name).matches() || name.startsWith(RESERVED_PREFIX))) {
                problem(path + ".name", "must be an identifier not starting with " + RESERVED_PREFIX);
                name = null;
            } else if (name != null && !names.add(name)) {
                problem(path + ".name", "declares column " + name + " twice");
                name = null;
            }
            var family = type == null ? java.util.Optional.<ColumnType>empty() : SqlServerTypeNames.parse(type);
            if (type != null && family.isEmpty()) {
                problem(path + ".type", "is not a SQL Server type dpone maps exactly (docs/type-mapping.md)");
            }
            if (name != null && family.isPresent()) {
                out.add(new SourceColumn(name, SqlServerTypeNames.name(family.get()),
                    nullable == null || nullable.asBoolean(), family.get()));
            }
        }
        return out;
    }

    /** With a {@code columns} block, every data column of a change is one of the declared columns. */
    private void undeclared(CdcEvent e, List<SourceColumn> columns, String path) {
        if (columns.isEmpty()) {
            return;
        }
        for (String column : e.data().keySet()) {
            if (columns.stream().noneMatch(c -> c.name().equals(column))) {
                problem(path + column, "is not declared in columns");
            }
        }
    }

    private CdcOffset nextOffset(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            problem("next_offset", "must be an object or null");
            return null;
        }
        unknownKeys(n, OFFSET, "next_offset.");
        String backend = requiredText(n, "backend", "next_offset.backend");
        String token = n.has("token") ? optionalPosition(n, "token", "next_offset.token") : null;
        if (!n.has("token")) {
            problem("next_offset.token", "is required");
        }
        JsonNode snap = n.get("snapshot_complete");
        if (snap != null && !snap.isBoolean()) {
            problem("next_offset.snapshot_complete", "must be true or false");
        }
        return backend == null || token == null ? null : new CdcOffset(backend, token, snap != null && snap.asBoolean());
    }

    private CdcEvent change(JsonNode n, String path) {
        if (!n.isObject()) {
            problem(path, "must be an object");
            return null;
        }
        int before = problems.size();
        unknownKeys(n, CHANGE, path + ".");
        String op = requiredText(n, "operation", path + ".operation");
        CdcOperation operation = null;
        if (op != null) {
            operation = CdcOperation.named(op).orElse(null);
            if (operation == null) {
                problem(path + ".operation", "is '" + op + "'; expected insert, update, delete, update_before or "
                    + "update_after");
            }
        }
        String position = optionalPosition(n, "position", path + ".position");
        if (!n.hasNonNull("position")) {
            // null is missing: a change without a position cannot be ordered, replayed or committed
            problem(path + ".position", "is required");
        }
        JsonNode seq = n.get("sequence");
        if (seq == null) {
            problem(path + ".sequence", "is required");
        } else if (!seq.canConvertToLong() || !seq.isIntegralNumber() || seq.asLong() < 0) {
            problem(path + ".sequence", "must be a non-negative integer");
        }
        String schema = requiredText(n, "source_schema", path + ".source_schema");
        String table = requiredText(n, "source_table", path + ".source_table");
        Map<String, Object> data = object(n, "data", path + ".data", true);
        Map<String, Object> metadata = object(n, "metadata", path + ".metadata", false);
        if (data != null) {
            for (String key : stream.uniqueKeys()) {
                if (data.get(key) == null) {
                    problem(path + ".data." + key, "unique-key column is " + (data.containsKey(key) ? "null" : "missing"));
                }
            }
            for (String column : data.keySet()) {
                if (column.startsWith(RESERVED_PREFIX)) {
                    problem(path + ".data." + column, "columns starting with " + RESERVED_PREFIX + " are reserved");
                }
            }
        }
        if (problems.size() > before) {
            return null;
        }
        return new CdcEvent(operation, position, seq.asLong(), schema, table, data, metadata);
    }

    private Map<String, Object> object(JsonNode n, String key, String path, boolean required) {
        JsonNode v = n.get(key);
        if (v == null || (!required && v.isNull())) {
            if (required) {
                problem(path, "is required");
            }
            return required ? null : Map.of();
        }
        if (!v.isObject()) {
            problem(path, "must be an object");
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> f : v.properties()) {
            out.put(f.getKey(), StrictJson.MAPPER.convertValue(f.getValue(), Object.class));
        }
        return out;
    }

    private String optionalPosition(JsonNode n, String key, String path) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual() || CdcPosition.parse(v.asText()).isEmpty()) {
            problem(path, "must be a position string: 0x-prefixed hex (an LSN) or decimal digits (a version)");
            return null;
        }
        return v.asText();
    }

    private String requiredText(JsonNode n, String key, String path) {
        JsonNode v = n.get(key);
        if (v == null || v.isNull()) {
            problem(path, "is required");
            return null;
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            problem(path, "must be a non-empty string");
            return null;
        }
        return v.asText();
    }

    private void unknownKeys(JsonNode n, Set<String> allowed, String prefix) {
        n.fieldNames().forEachRemaining(k -> {
            if (!allowed.contains(k)) {
                problem(prefix + k, "is not a key of the events contract");
            }
        });
    }

    private void problem(String path, String message) {
        problems.add(CdcBlockers.blocker(CdcBlockers.EVENTS_INVALID, path, path + " " + message));
    }
}
