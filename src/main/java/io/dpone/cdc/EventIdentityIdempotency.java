package io.dpone.cdc;

import java.util.ArrayList;
import java.util.HashMap;
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
    @Override
    public String eventId(StreamIdentity stream, CdcEvent event) {
        return CdcHashes.sha256Hex(CdcHashes.canonicalJson(List.of(stream.backend(),
            event.sourceSchema() + "." + event.sourceTable(), event.positionValue().canonical(), event.sequence(),
            event.operation().name())));
    }

    @Override
    public IdempotencyResult check(StreamIdentity stream, CdcBatch batch, Optional<CdcOffset> committed) {
        Map<String, Integer> firstSeen = new HashMap<>();
        List<Map<String, Object>> duplicates = new ArrayList<>();
        List<CdcEvent> toApply = new ArrayList<>();
        List<String> applyIds = new ArrayList<>();
        int replayed = 0;
        List<CdcEvent> changes = batch.changes();
        for (int i = 0; i < changes.size(); i++) {
            CdcEvent e = changes.get(i);
            String id = eventId(stream, e);
            Integer first = firstSeen.putIfAbsent(id, i);
            if (first != null) {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("event", "changes[" + i + "]");
                d.put("duplicate_of", "changes[" + first + "]");
                d.put("event_id", id);
                duplicates.add(d);
                continue;
            }
            if (committed.isPresent() && e.positionValue().compareTo(committed.get().position()) <= 0) {
                replayed++;
            } else {
                toApply.add(e);
            }
        }
        toApply.sort(CdcEvent.ORDER);
        for (CdcEvent e : toApply) {
            applyIds.add(eventId(stream, e));
        }
        String batchId = CdcHashes.sha256Hex(CdcHashes.canonicalJson(List.of(stream.streamId(),
            committed.map(CdcOffset::token).orElse(""),
            batch.nextOffset() == null ? "" : batch.nextOffset().token(), applyIds))).substring(0, 32);
        return new IdempotencyResult(batchId, toApply, replayed, duplicates);
    }
}
