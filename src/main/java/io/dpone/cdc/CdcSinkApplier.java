package io.dpone.cdc;

/** Applies one batch to the sink; re-applying a batch id (or an event already held) must not duplicate rows. */
public interface CdcSinkApplier {
    SinkReceipt apply(StreamIdentity stream, CdcApplyBatch batch);
}
