package io.dpone.storage;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A flat key/value object store scoped to one bucket. Keys are relative to the bucket and never start with
 * {@code /}. Every failure surfaces as an {@link ObjectStoreException}; no method returns a partial result
 * silently.
 */
public interface ObjectStore {

    /** Uploads {@code file} to {@code key}, replacing any existing object. Large files go up in parts. */
    void put(String key, Path file);

    /**
     * Starts uploading {@code key} part by part ({@link PartUpload}); nothing is visible under the key before the
     * upload completes. The default buffers the parts in a local temporary file and {@link #put}s it on completion.
     */
    default PartUpload startUpload(String key) {
        return new BufferedPartUpload(this, key);
    }

    /**
     * Opens {@code key} for reading. The caller must close the stream.
     *
     * @throws ObjectStoreException with {@link ObjectStoreException.Reason#NOT_FOUND} if the key does not exist
     */
    InputStream get(String key);

    /** All keys starting with {@code prefix} (all pages), in the store's lexicographic order. */
    List<String> list(String prefix);

    /**
     * As {@link #list}, each key with the time its object was last written; the default knows no times (null), so
     * a caller deciding by age keeps such objects.
     */
    default java.util.Map<String, java.time.Instant> listModified(String prefix) {
        java.util.Map<String, java.time.Instant> out = new java.util.LinkedHashMap<>();
        list(prefix).forEach(k -> out.put(k, null));
        return out;
    }

    /** Deletes {@code key}; deleting a key that does not exist is not an error. */
    void delete(String key);

    /**
     * Deletes every key starting with {@code prefix} and returns how many were deleted. An empty prefix is
     * rejected so that a whole bucket is never emptied by accident.
     */
    int deletePrefix(String prefix);
}
