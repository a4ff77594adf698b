package io.dpone.error;

/**
 * A throwable whose message is dpone's own, typed account of the failure: it is all a description shows.
 * {@code Redactor.describe} stops there instead of appending the messages of its causes, which are a third party's
 * words (an SDK's {@code Unable to execute HTTP request: Connect to host:port [...]}) kept only for debugging.
 */
public interface CompleteMessage {
}
