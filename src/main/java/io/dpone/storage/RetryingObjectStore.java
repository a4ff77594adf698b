package io.dpone.storage;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.retry.OperationKind;
import io.dpone.retry.RetryBudget;
import io.dpone.retry.TransientFailure;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A run's object store under its {@link RetryBudget}: a put (a whole object, one part of a multipart upload under the
 * same part number, the upload's completion) is an {@code object_put}, a get or a listing an {@code object_get}, each
 * tried again after a transient fault (a reset, a timeout, HTTP 5xx/503 SlowDown: {@link ObjectStoreException}'s own
 * verdict) while the run's budget lasts. A put under the same key, or a part under the same number, replaces what an
 * earlier attempt left; a delete (of a key, or of a run prefix, listed again) is an {@code object_put} too, idempotent.
 * The store underneath is opened with the
 * SDK's own retries off, so the run's budget is the single bound ({@link StagingStore#open(io.dpone.connect.ConnectionSpec,
 * String, RetryBudget)}).
 */
public final class RetryingObjectStore implements ObjectStore, AutoCloseable {
    /** The subject of the blockers: the manifest's runtime writer, as the preflight's probe names it. */
    private static final String SUBJECT = "runtime_access";

    private final ObjectStore inner;
    private final RetryBudget budget;

    public RetryingObjectStore(ObjectStore inner, RetryBudget budget) {
        this.inner = inner;
        this.budget = budget;
    }

    /**
     * The store underneath's description: the same store under another run's budget is the same store (the
     * object-storage probes are reused within a process by what the store is, {@code route.ProbeReuse}).
     */
    @Override
    public String toString() {
        return inner.toString();
    }

    @Override
    public void put(String key, Path file) {
        budget.run(OperationKind.OBJECT_PUT, () -> typed(() -> {
            inner.put(key, file);
            return null;
        }));
    }

    /**
     * A multipart upload whose steps retry: the creation and every part ({@code object_put}, the part under the same
     * number), and the completion. A part that fails transiently leaves the upload open for its retry; once a step
     * fails for good (permanent, or the budget spent) the upload is aborted.
     */
    @Override
    public PartUpload startUpload(String key) {
        PartUpload upload = budget.call(OperationKind.OBJECT_PUT, () -> typed(() -> inner.startUpload(key)));
        return new PartUpload() {
            @Override
            public void part(byte[] data, int length) {
                step(() -> upload.part(data, length));
            }

            @Override
            public void complete() {
                step(upload::complete);
            }

            @Override
            public void abort() {
                upload.abort();
            }

            private void step(Runnable step) {
                try {
                    budget.run(OperationKind.OBJECT_PUT, () -> typed(() -> {
                        step.run();
                        return null;
                    }));
                } catch (RuntimeException e) {
                    try {
                        upload.abort();
                    } catch (RuntimeException abortFailure) {
                        e.addSuppressed(abortFailure);
                    }
                    throw e;
                }
            }
        };
    }

    @Override
    public InputStream get(String key) {
        return budget.call(OperationKind.OBJECT_GET, () -> typed(() -> inner.get(key)));
    }

    @Override
    public List<String> list(String prefix) {
        return budget.call(OperationKind.OBJECT_GET, () -> typed(() -> inner.list(prefix)));
    }

    @Override
    public Map<String, java.time.Instant> listModified(String prefix) {
        return budget.call(OperationKind.OBJECT_GET, () -> typed(() -> inner.listModified(prefix)));
    }

    /** A delete is idempotent (a key already gone is no error): an {@code object_put}. */
    @Override
    public void delete(String key) {
        budget.run(OperationKind.OBJECT_PUT, () -> typed(() -> {
            inner.delete(key);
            return null;
        }));
    }

    /** Lists and deletes again from the start: what an earlier attempt deleted is no longer listed. */
    @Override
    public int deletePrefix(String prefix) {
        return budget.call(OperationKind.OBJECT_PUT, () -> typed(() -> inner.deletePrefix(prefix)));
    }

    /**
     * Runs one attempt, its failure typed for the run: a transient one as {@code connection.failed} (a
     * {@link TransientFailure}, so the budget retries it and names it when spent), a refused credential as
     * {@code storage.runtime_put_denied}; anything else as it is. The message names the operation and the object,
     * through the redactor.
     */
    private static <T> T typed(java.util.function.Supplier<T> attempt) {
        try {
            return attempt.get();
        } catch (ObjectStoreException e) {
            String message = "object storage: " + io.dpone.connect.Redactor.global().redact(e.getMessage());
            if (e.transientFault()) {
                TransientFailure typed = new TransientFailure(BlockerCode.CONNECTION_FAILED, SUBJECT, message);
                typed.addSuppressed(e); // not in any message; kept for a debugger
                throw typed;
            }
            if (e.reason() == ObjectStoreException.Reason.ACCESS_DENIED) {
                throw new DponeException(BlockerCode.STORAGE_RUNTIME_PUT_DENIED, SUBJECT, message);
            }
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        if (inner instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
