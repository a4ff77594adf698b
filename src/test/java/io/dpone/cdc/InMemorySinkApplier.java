package io.dpone.cdc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * In-memory sink fake: keeps one row per event id and the batch ids it saw. {@code passed}/{@code durable} set the
 * receipt it returns (a sink that fails or that acknowledges without durability).
 */
final class InMemorySinkApplier implements CdcSinkApplier {
    final Map<String, CdcEvent> rows = new LinkedHashMap<>();
    final List<String> batches = new ArrayList<>();
    private final CdcIdempotencyService identity = new EventIdentityIdempotency();
    private final boolean passed;
    private final boolean durable;

    InMemorySinkApplier(boolean passed, boolean durable) {
        this.passed = passed;
        this.durable = durable;
    }

    InMemorySinkApplier() {
        this(true, true);
    }

    @Override
    public SinkReceipt apply(StreamIdentity stream, CdcApplyBatch batch) {
        ExactText.require(stream, batch.events());
        int applied = 0;
        int present = 0;
        if (passed) {
            for (CdcEvent e : batch.events()) {
                if (rows.putIfAbsent(identity.eventId(stream, e), e) == null) {
                    applied++;
                } else {
                    present++;
                }
            }
        }
        boolean known = batches.contains(batch.batchId());
        if (!known) {
            batches.add(batch.batchId());
        }
        return new SinkReceipt(SinkReceipt.SCHEMA, batch.batchId(), batch.runId(), passed, passed && durable,
            "memory", batch.events().size(), applied, present, known, passed ? "applied in memory" : "rejected",
            Map.of());
    }
}
