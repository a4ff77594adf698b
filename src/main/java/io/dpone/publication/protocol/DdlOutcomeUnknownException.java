package io.dpone.publication.protocol;

/** A distributed DDL submission whose outcome is unknown: it must be reconciled, never re-sent blindly. */
public class DdlOutcomeUnknownException extends RuntimeException {
    public DdlOutcomeUnknownException(String message) {
        super(message);
    }
}
