package io.dpone.cdc.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.CdcPosition;
import io.dpone.error.DponeException;
import io.dpone.report.Json;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The per-table state a multi-table stream's offset records (in its {@code resume}, which a multi-table offset
 * otherwise never uses: it always ends on a commit LSN): {@code {"tables": {"dbo.orders": {"lane": "<id>"},
 * "dbo.added": {"lane": "<id>", "from": "0x..."}}}}, canonical JSON.
 *
 * <ul>
 *   <li>{@code lane}: the table's single-table stream id (its source table, CDC log and unique keys): a table whose
 *   log or keys changed since is {@code cdc_runtime.checkpoint_stream_mismatch}, naming it;</li>
 *   <li>{@code from}: present while the table's own position lies above the stream's: a table added to a running
 *   stream took its snapshot at that position and reads its changes after it; gone once the stream's position
 *   reaches it.</li>
 * </ul>
 * A table of the stream that the state does not list was added since the last commit: it starts with its own
 * snapshot hand-over ({@link TableLanes}). A table the state lists that the stream no longer names is dropped from
 * the state at the next commit (its log stays as it is).
 */
final class LaneStates {
    /** One table's recorded state: its lane id and, while ahead of the stream, its own position. */
    record Entry(String lane, String from) {
    }

    private LaneStates() {
    }

    /** The recorded states by {@code schema.table}; null when {@code resume} holds none (no state recorded). */
    static Map<String, Entry> parse(String resume) {
        if (resume == null) {
            return null;
        }
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(resume);
        } catch (IOException e) {
            throw invalid();
        }
        JsonNode tables = root == null ? null : root.get("tables");
        if (tables == null || !tables.isObject() || root.size() != 1) {
            throw invalid();
        }
        Map<String, Entry> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = tables.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> t = it.next();
            JsonNode lane = t.getValue().get("lane");
            JsonNode from = t.getValue().get("from");
            if (lane == null || !lane.isTextual() || (from != null && (!from.isTextual()
                || CdcPosition.parse(from.asText()).isEmpty()))) {
                throw invalid();
            }
            out.put(t.getKey(), new Entry(lane.asText(), from == null ? null : from.asText()));
        }
        return out;
    }

    /** The canonical JSON of {@code states}, in the stream's table order. */
    static String json(Map<String, Entry> states) {
        Map<String, Object> tables = new LinkedHashMap<>();
        states.forEach((name, e) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lane", e.lane());
            if (e.from() != null) {
                m.put("from", e.from());
            }
            tables.put(name, m);
        });
        return CdcHashes.canonicalJson(Map.of("tables", tables));
    }

    private static DponeException invalid() {
        return new DponeException(CdcBlockers.blocker(CdcBlockers.CHECKPOINT_INVALID, "offset.resume",
            "the multi-table stream's per-table state (offset.resume) is not {\"tables\": {table: {\"lane\", "
                + "\"from\"?}}}; it was not used and not changed", Map.of("field", "offset.resume")));
    }
}
