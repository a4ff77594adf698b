package io.dpone.cdc;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** In-memory checkpoint fake: one offset per stream id; refuses another stream's checkpoint like the real stores. */
final class InMemoryOffsetStore implements CdcOffsetStore {
    private StreamIdentity owner;
    private CdcOffset offset;
    final Map<String, Integer> saves = new HashMap<>();

    @Override
    public Optional<CdcOffset> load(StreamIdentity stream) {
        check(stream);
        return Optional.ofNullable(offset);
    }

    @Override
    public void commit(StreamIdentity stream, Optional<CdcOffset> expected, CdcOffset next, String writer) {
        check(stream);
        if (!Optional.ofNullable(offset).equals(expected)) {
            throw ConflictingCommit.of(stream, "checkpoint", Optional.ofNullable(offset), expected);
        }
        owner = stream;
        offset = next;
        saves.merge(stream.streamId(), 1, Integer::sum);
    }

    private void check(StreamIdentity stream) {
        if (owner != null && !owner.equals(stream)) {
            throw CdcBlockers.failure(CdcBlockers.CHECKPOINT_STREAM_MISMATCH, "checkpoint", "another stream");
        }
    }
}
