package io.dpone.cdc;

import io.dpone.source.SourceColumn;
import java.util.List;

/**
 * The events one tick hands to the sink, in change order, with the batch id the sink records (re-applying the
 * same batch id must not duplicate rows), the run id the rows carry and the source's payload columns with their
 * types (empty when unknown; see {@link CdcBatch#columns()}).
 */
public record CdcApplyBatch(String batchId, String runId, List<CdcEvent> events, List<SourceColumn> columns) {
    public CdcApplyBatch {
        events = List.copyOf(events);
        columns = List.copyOf(columns);
    }

    /** A batch whose column types are not known. */
    public CdcApplyBatch(String batchId, String runId, List<CdcEvent> events) {
        this(batchId, runId, events, List.of());
    }
}
