package io.dpone.storage;

/**
 * A failed object-store operation. The message names the operation, bucket, key and the store's error code;
 * it never contains credentials.
 */
public class ObjectStoreException extends RuntimeException implements io.dpone.error.CompleteMessage,
        io.dpone.retry.TransientSignal {
    private static final long serialVersionUID = 1L;

    /** Why the operation failed, coarse enough for callers to branch on. */
    public enum Reason {
        /** Credentials rejected or the operation is not permitted (HTTP 401/403). */
        ACCESS_DENIED,
        /** The key or bucket does not exist (HTTP 404). */
        NOT_FOUND,
        /** The endpoint could not be reached or did not answer. */
        UNREACHABLE,
        /** Anything else: server error, rejected request, local file problem. */
        FAILED
    }

    private final Reason reason;
    private final boolean transientFault;

    public ObjectStoreException(Reason reason, String message, Throwable cause) {
        this(reason, message, cause, reason == Reason.UNREACHABLE);
    }

    /** {@code transientFault}: worth another try (unreachable, HTTP 5xx/503 SlowDown, a reset), per the classifier. */
    public ObjectStoreException(Reason reason, String message, Throwable cause, boolean transientFault) {
        super(message, cause);
        this.reason = reason;
        this.transientFault = transientFault;
    }

    @Override
    public boolean transientFault() {
        return transientFault;
    }

    public Reason reason() {
        return reason;
    }
}
