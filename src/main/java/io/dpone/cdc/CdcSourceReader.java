package io.dpone.cdc;

/** Reads one bounded batch of changes. Implementations: the events-JSON reader; live SQL Server readers. */
public interface CdcSourceReader {
    /**
     * Reads at most {@code maxEvents} changes after {@code from} (null: no checkpoint yet). A reader may return
     * changes at or below {@code from} (a replayed export); the idempotency service drops them. Input that cannot
     * be read throws {@link io.dpone.error.DponeException} naming the field, before anything is applied.
     */
    CdcBatch readBatch(CdcOffset from, int maxEvents);

    /**
     * How far the stream is behind its source after a tick that left the checkpoint at {@code committed} with the
     * source at {@code highWatermark}, in milliseconds (Debezium's {@code MilliSecondsBehindSource}): 0 when the
     * checkpoint has reached the high watermark; otherwise the source's clock minus the commit time of the committed
     * position. Empty when the reader cannot tell (an events file carries no commit times), and never a failure.
     */
    default java.util.OptionalLong millisBehindSource(CdcOffset committed, String highWatermark) {
        return java.util.OptionalLong.empty();
    }
}
