package io.dpone.cdc;

import java.util.Optional;

/** The stream's durable checkpoint. */
public interface CdcOffsetStore {
    /** The committed offset, empty before the first commit; a checkpoint of another stream is refused (typed). */
    Optional<CdcOffset> load(StreamIdentity stream);

    /** Commits {@code offset}; called only after a durable sink apply. */
    void save(StreamIdentity stream, CdcOffset offset);
}
