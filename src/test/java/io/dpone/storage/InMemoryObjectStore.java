package io.dpone.storage;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * An {@link ObjectStore} in memory, for tests of the code above the store (routes, probes, cleanup audits). It
 * passes the same {@link ObjectStoreContract} as the S3 store, so a test that passes on it says something about S3.
 */
public final class InMemoryObjectStore implements ObjectStore {
    private final ConcurrentSkipListMap<String, byte[]> objects = new ConcurrentSkipListMap<>();

    @Override
    public void put(String key, Path file) {
        checkKey(key);
        try {
            objects.put(key, Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ObjectStoreException(ObjectStoreException.Reason.FAILED, "PutObject " + key + ": local file",
                new UncheckedIOException(e));
        }
    }

    @Override
    public InputStream get(String key) {
        checkKey(key);
        byte[] bytes = objects.get(key);
        if (bytes == null) {
            throw new ObjectStoreException(ObjectStoreException.Reason.NOT_FOUND, "GetObject " + key + ": no such key",
                null);
        }
        return new ByteArrayInputStream(bytes);
    }

    @Override
    public List<String> list(String prefix) {
        String p = prefix == null ? "" : prefix;
        return objects.keySet().stream().filter(k -> k.startsWith(p)).toList();
    }

    @Override
    public void delete(String key) {
        checkKey(key);
        objects.remove(key);
    }

    @Override
    public int deletePrefix(String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("deletePrefix needs a non-empty prefix");
        }
        List<String> keys = list(prefix);
        keys.forEach(objects::remove);
        return keys.size();
    }

    private static void checkKey(String key) {
        if (key == null || key.isEmpty() || key.startsWith("/")) {
            throw new IllegalArgumentException("object key must be non-empty and must not start with '/'");
        }
    }
}
