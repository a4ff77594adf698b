package io.dpone.cdc;

import java.util.Optional;

/** Event identity, duplicate detection and replay recognition. */
public interface CdcIdempotencyService {
    /** The identity of {@code event}: backend, source schema.table, position, sequence and operation. */
    String eventId(StreamIdentity stream, CdcEvent event);

    /**
     * Finds events repeated inside {@code batch} and drops events at or below {@code committed} (a replay after
     * a crash between apply and commit, or an overlapping export) from the apply set.
     */
    IdempotencyResult check(StreamIdentity stream, CdcBatch batch, Optional<CdcOffset> committed);
}
