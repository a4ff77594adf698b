package io.dpone.cdc;

import java.util.List;

/**
 * The events one tick hands to the sink, in change order, with the batch id the sink records (re-applying the
 * same batch id must not duplicate rows) and the run id the rows carry.
 */
public record CdcApplyBatch(String batchId, String runId, List<CdcEvent> events) {
    public CdcApplyBatch {
        events = List.copyOf(events);
    }
}
