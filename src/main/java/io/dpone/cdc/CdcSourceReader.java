package io.dpone.cdc;

/** Reads one bounded batch of changes. Implementations: the events-JSON reader; live SQL Server readers. */
public interface CdcSourceReader {
    /**
     * Reads at most {@code maxEvents} changes after {@code from} (null: no checkpoint yet). A reader may return
     * changes at or below {@code from} (a replayed export); the idempotency service drops them. Input that cannot
     * be read throws {@link io.dpone.error.DponeException} naming the field, before anything is applied.
     */
    CdcBatch readBatch(CdcOffset from, int maxEvents);
}
