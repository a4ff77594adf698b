package io.dpone.cdc;

/**
 * A durable place in a change stream: the reader's {@code backend}, its {@code token} (a {@link CdcPosition} text:
 * every event at or below it has been applied durably) and whether the initial snapshot is complete.
 */
public record CdcOffset(String backend, String token, boolean snapshotComplete) {
    public CdcPosition position() {
        return CdcPosition.of(token);
    }
}
