package io.dpone.cdc;

import java.util.List;
import java.util.Map;

/**
 * The idempotency verdict on one batch.
 *
 * @param batchId    deterministic id of the apply set (stream, committed offset, next offset, event ids)
 * @param toApply    events above the committed offset, in change order
 * @param replayed   events at or below the committed offset (already durable), dropped from the apply set
 * @param duplicates one entry per repeated event identity: {@code event}, {@code duplicate_of}, {@code event_id}
 */
public record IdempotencyResult(String batchId, List<CdcEvent> toApply, int replayed,
                                List<Map<String, Object>> duplicates) {
    public IdempotencyResult {
        toApply = List.copyOf(toApply);
        duplicates = List.copyOf(duplicates);
    }

    public boolean passed() {
        return duplicates.isEmpty();
    }
}
