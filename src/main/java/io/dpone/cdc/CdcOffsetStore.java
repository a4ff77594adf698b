package io.dpone.cdc;

import java.util.Optional;

/** The stream's durable checkpoint. */
public interface CdcOffsetStore {
    /** The committed offset, empty before the first commit; a checkpoint of another stream is refused (typed). */
    Optional<CdcOffset> load(StreamIdentity stream);

    /**
     * Commits {@code next} as a compare-and-set: only when the stored offset is still {@code expected} (what the
     * tick loaded; empty = no checkpoint yet). Called only after a durable sink apply. When another writer moved the
     * offset first, or commits at the same moment, this throws {@code cdc_runtime.offset_conflict}: a second writer
     * never wins silently (stores without a conditional write may tell both writers; either offset kept then points
     * at a batch its writer applied).
     *
     * @param writer the committing tick's run id (kept with the offset where the store has room for it)
     */
    void commit(StreamIdentity stream, Optional<CdcOffset> expected, CdcOffset next, String writer);
}
