package io.dpone.cdc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The default idempotency service. An event's identity is SHA-256 of the canonical JSON
 * {@code [backend, "schema.table", canonical position, sequence, operation]}; the position is canonical
 * ({@code 0x11} = {@code 0x0011}), so one change exported twice with different zero padding is still one change.
 */
public final class EventIdentityIdempotency implements CdcIdempotencyService {
    /**
     * The ids of the last {@link #check}'s apply set, by event instance: the sink applier of the same tick asks for
     * the same (immutable) events again and gets them without rehashing. Built fully, then published.
     */
    private volatile Memo memo;

    @Override
    public String eventId(StreamIdentity stream, CdcEvent event) {
        Memo m = memo;
        if (m != null && (m.stream() == stream || m.stream().equals(stream))) {
            String id = m.ids().get(event);
            if (id != null) {
                return id;
            }
        }
        return computeId(stream, event);
    }

    private static String computeId(StreamIdentity stream, CdcEvent event) {
        return CdcHashes.sha256Hex(CdcHashes.canonicalJson(List.of(stream.backend(),
            event.sourceSchema() + "." + event.sourceTable(), event.positionValue().canonical(), event.sequence(),
            event.operation().name())));
    }

    @Override
    public IdempotencyResult check(StreamIdentity stream, CdcBatch batch, Optional<CdcOffset> committed) {
        List<CdcEvent> changes = batch.changes();
        Map<String, Integer> firstSeen = new HashMap<>(Math.max(16, changes.size() * 4 / 3 + 1));
        List<Map<String, Object>> duplicates = new ArrayList<>();
        List<Identified> toApply = new ArrayList<>(changes.size());
        CdcPosition committedAt = committed.map(CdcOffset::position).orElse(null);
        int replayed = 0;
        for (int i = 0; i < changes.size(); i++) {
            CdcEvent e = changes.get(i);
            String id = computeId(stream, e);
            Integer first = firstSeen.putIfAbsent(id, i);
            if (first != null) {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("event", "changes[" + i + "]");
                d.put("duplicate_of", "changes[" + first + "]");
                d.put("event_id", id);
                duplicates.add(d);
                continue;
            }
            if (committedAt != null && e.positionValue().compareTo(committedAt) <= 0) {
                replayed++;
            } else {
                toApply.add(new Identified(e, id));
            }
        }
        // each id is computed once: the apply order sorts the (event, id) pairs
        toApply.sort(Comparator.comparing(Identified::event, CdcEvent.ORDER));
        List<CdcEvent> events = new ArrayList<>(toApply.size());
        List<String> applyIds = new ArrayList<>(toApply.size());
        IdentityHashMap<CdcEvent, String> byEvent = new IdentityHashMap<>(toApply.size());
        for (Identified x : toApply) {
            events.add(x.event());
            applyIds.add(x.id());
            byEvent.put(x.event(), x.id());
        }
        memo = new Memo(stream, byEvent);
        String batchId = CdcHashes.sha256Hex(CdcHashes.canonicalJson(List.of(stream.streamId(),
            committed.map(CdcOffset::token).orElse(""),
            batch.nextOffset() == null ? "" : batch.nextOffset().token(), applyIds))).substring(0, 32);
        return new IdempotencyResult(batchId, events, replayed, duplicates);
    }

    private record Identified(CdcEvent event, String id) {
    }

    private record Memo(StreamIdentity stream, IdentityHashMap<CdcEvent, String> ids) {
    }
}
