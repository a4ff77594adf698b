package io.dpone.storage;

/**
 * One object uploaded part by part while its content is still being produced (S3: a multipart upload). Parts go up
 * in order; every part but the last must hold at least {@link #MIN_PART_SIZE} bytes. Not thread-safe: one thread
 * uploads. The object exists only after {@link #complete()}; {@link #abort()} discards the parts uploaded so far.
 */
public interface PartUpload {
    /** S3's minimum size of every part but the last. */
    long MIN_PART_SIZE = 5L * 1024 * 1024;

    /** Uploads the next part: {@code length} bytes of {@code data} from index 0. */
    void part(byte[] data, int length);

    /** Completes the object from the parts uploaded, in order. */
    void complete();

    /** Discards the upload; idempotent, and a no-op after {@link #complete()}. */
    void abort();
}
