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
 * "dbo.added": {"lane": "<id>", "from": "0x..."}, "dbo.altered": {"lane": "<id>", "capture_instance": "dbo_altered_v2"}}}},
 * canonical JSON.
 *
 * <ul>
 *   <li>{@code lane}: the table's single-table stream id (its source table, CDC log and unique keys): a table whose
 *   log or keys changed since is {@code cdc_runtime.checkpoint_stream_mismatch}, naming it;</li>
 *   <li>{@code from}: present while the table's own position lies above the stream's: a table added to a running
 *   stream took its snapshot at that position and reads its changes after it; gone once the stream's position
 *   reaches it.</li>
 *   <li>{@code capture_instance}: present once the table's reader handed over to a second capture instance (one other
 *   than the table's configured one) and the stream's position reached it: the table reads that instance from then
 *   on, also after its first instance is disabled. An offset without it (every offset before the hand-over, and
 *   every older offset) reads the configured instance.</li>
 * </ul>
 * A table of the stream that the state does not list was added since the last commit: it starts with its own
 * snapshot hand-over ({@link TableLanes}). A table the state lists that the stream no longer names is dropped from
 * the state at the next commit (its log stays as it is).
 */
final class LaneStates {
    /**
     * One table's recorded state: its lane id, while ahead of the stream its own position, and the capture instance it
     * reads when that is not its configured one (null: the configured one).
     */
    record Entry(String lane, String from, String captureInstance) {
        Entry(String lane, String from) {
            this(lane, from, null);
        }
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
            JsonNode instance = t.getValue().get("capture_instance");
            if (lane == null || !lane.isTextual() || (from != null && (!from.isTextual()
                || CdcPosition.parse(from.asText()).isEmpty())) || (instance != null && (!instance.isTextual()
                || !io.dpone.manifest.Identifier.PATTERN.matcher(instance.asText()).matches()))) {
                throw invalid();
            }
            out.put(t.getKey(), new Entry(lane.asText(), from == null ? null : from.asText(),
                instance == null ? null : instance.asText()));
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
            if (e.captureInstance() != null) {
                m.put("capture_instance", e.captureInstance());
            }
            tables.put(name, m);
        });
        return CdcHashes.canonicalJson(Map.of("tables", tables));
    }

    private static DponeException invalid() {
        return new DponeException(CdcBlockers.blocker(CdcBlockers.CHECKPOINT_INVALID, "offset.resume",
            "the multi-table stream's per-table state (offset.resume) is not {\"tables\": {table: {\"lane\", "
                + "\"from\"?, \"capture_instance\"?}}} (a capture instance an identifier); it was not used and not "
                + "changed", Map.of("field", "offset.resume")));
    }
}
