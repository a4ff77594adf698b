package io.dpone.cdc;

/**
 * A durable place in a change stream: the reader's {@code backend}, its {@code token} (a {@link CdcPosition} text:
 * every event at or below it has been applied durably), whether the initial snapshot is complete, and an optional
 * {@code resume} (reader-specific canonical JSON, null for the events-JSON reader): where to continue inside the
 * position just above {@code token} when a bounded batch ended in the middle of it (a large transaction). Events of
 * that position at or before the resume point are applied; the ones after it are not.
 *
 * <p>{@code captureInstance}: SQL Server CDC only, the capture instance the stream reads since it handed over to a
 * table's second capture instance (docs/cdc.md, "Schema changes"); null means the stream's configured instance
 * (every offset written before a hand-over, and every older checkpoint).
 */
public record CdcOffset(String backend, String token, boolean snapshotComplete, String resume,
                        String captureInstance) {
    public CdcOffset(String backend, String token, boolean snapshotComplete) {
        this(backend, token, snapshotComplete, null, null);
    }

    public CdcOffset(String backend, String token, boolean snapshotComplete, String resume) {
        this(backend, token, snapshotComplete, resume, null);
    }

    public CdcPosition position() {
        return CdcPosition.of(token);
    }
}
