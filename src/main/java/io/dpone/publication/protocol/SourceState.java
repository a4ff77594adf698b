package io.dpone.publication.protocol;

/**
 * The source-side state a publication advances (e.g. a watermark or a completed-snapshot marker). Called only
 * after the receipt is durable; must be idempotent per operation id, since a resume may call it again.
 */
public interface SourceState {
    void advance(Receipt receipt);

    /** A full refresh with no source-side state. */
    SourceState NONE = receipt -> { };
}
