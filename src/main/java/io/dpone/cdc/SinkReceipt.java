package io.dpone.cdc;

import java.util.Map;

/**
 * What a sink applier reports for one batch. {@code durable} is true only once the applied rows survive a crash
 * (fsync for files, an acknowledged insert for a database). Only {@code passed && durable} lets the offset move.
 *
 * @param target            where the rows went ({@code sink/cdc_sink_rows.json}, {@code analytics.orders_cdc})
 * @param eventsReceived    events handed to the applier
 * @param appliedRows       rows newly written by this apply
 * @param alreadyPresentRows events the sink already held (same event id): not written again
 * @param batchAlreadyApplied the batch id was already recorded by the sink
 */
public record SinkReceipt(String schema, String batchId, String runId, boolean passed, boolean durable,
                          String target, int eventsReceived, int appliedRows, int alreadyPresentRows,
                          boolean batchAlreadyApplied, String message, Map<String, Object> details) {
    public static final String SCHEMA = "dpone.cdc_sink_receipt.v1";

    public SinkReceipt {
        details = details == null ? Map.of() : Map.copyOf(details);
    }
}
