package io.dpone.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@link ObjectStore#startUpload}'s default: parts collected in a temporary file, one {@code put} on completion. */
final class BufferedPartUpload implements PartUpload {
    private final ObjectStore store;
    private final String key;
    private Path file;
    private OutputStream out;
    private boolean done;

    BufferedPartUpload(ObjectStore store, String key) {
        this.store = store;
        this.key = key;
    }

    @Override
    public void part(byte[] data, int length) {
        if (done) {
            throw new IllegalStateException("upload of " + key + " is over");
        }
        try {
            if (out == null) {
                file = Files.createTempFile("dpone-part-upload", ".tmp");
                out = Files.newOutputStream(file);
            }
            out.write(data, 0, length);
        } catch (IOException e) {
            abort();
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void complete() {
        if (done) {
            throw new IllegalStateException("upload of " + key + " is over");
        }
        try {
            if (out == null) {
                throw new IllegalStateException("no part uploaded for " + key);
            }
            out.close();
            store.put(key, file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            abort();
        }
    }

    @Override
    public void abort() {
        done = true;
        try {
            if (out != null) {
                out.close();
            }
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // a temporary file; nothing to lose
        }
    }
}
