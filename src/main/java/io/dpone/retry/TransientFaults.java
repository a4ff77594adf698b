package io.dpone.retry;

import io.dpone.error.DponeException;
import java.io.EOFException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/**
 * The one classifier of a failure on a connection: transient (the same request may succeed on a fresh connection:
 * a reset, a timed-out connect, a read timeout, an early end of stream, an HTTP 502/503/504, a dropped TDS
 * connection) or permanent (everything else: a server's refusal of the statement, a wrong password, a missing table,
 * a typed blocker, and a connect the peer refused: nothing listens there, which is a server that is down or a wrong
 * port, and failing at once tells the user so where a retry budget would spend minutes on it). It reads the cause chain; library types it must not depend on are matched by class name, and the
 * facts only a client exposes (an HTTP status, a ClickHouse error code, an SDK's own verdict) are passed in by the
 * package that owns the client, through {@link #isTransientHttpStatus} and {@link #isTransientServerCode}.
 */
public final class TransientFaults {
    /** Library exceptions that mean the connection broke, matched by name (no dependency on their libraries). */
    private static final Set<String> TRANSIENT_TYPES = Set.of(
        "org.apache.hc.core5.http.NoHttpResponseException",
        "org.apache.hc.core5.http.ConnectionClosedException",
        "org.apache.hc.core5.http.TruncatedChunkException",
        "org.apache.hc.core5.http.MalformedChunkCodingException",
        "org.apache.hc.client5.http.ConnectTimeoutException",
        "org.apache.hc.client5.http.HttpHostConnectException",
        "org.apache.http.NoHttpResponseException",
        "org.apache.http.ConnectionClosedException",
        "org.apache.http.conn.ConnectTimeoutException",
        "org.apache.http.conn.HttpHostConnectException",
        "software.amazon.awssdk.core.exception.ApiCallTimeoutException",
        "software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException");

    /** ClickHouse error codes of a network fault between the server and its client (or its own peers). */
    private static final Set<Integer> TRANSIENT_SERVER_CODES = Set.of(
        209, // SOCKET_TIMEOUT
        210, // NETWORK_ERROR
        202, // TOO_MANY_SIMULTANEOUS_QUERIES
        394); // QUERY_WAS_CANCELLED (a server shutting down cancels queries)

    private TransientFaults() {
    }

    /** Whether {@code failure} is worth another try of an idempotent operation on a fresh connection. */
    public static boolean isTransient(Throwable failure) {
        if (refused(failure)) {
            return false;
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TransientFailure) {
                return true;
            }
            if (t instanceof TransientSignal signal) {
                return signal.transientFault();
            }
            if (t instanceof DponeException) {
                return false; // typed where it was raised, as permanent
            }
            if (transientType(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A connect the peer refused ({@link ConnectException} with the platform's "Connection refused", or no route to
     * the host) anywhere in the cause chain: nothing listens there. Not transient by itself; a client that knows its
     * server answered before may still try again (a restart). Matched by the message because clients also raise
     * {@code ConnectException} for answers that are not a refusal (client-v2 for an HTTP 503).
     */
    public static boolean refused(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NoRouteToHostException || t instanceof ConnectException
                    && String.valueOf(t.getMessage()).contains("Connection refused")) {
                return true;
            }
        }
        return false;
    }

    private static boolean transientType(Throwable t) {
        if (t instanceof SocketTimeoutException || t instanceof ConnectException || t instanceof HttpTimeoutException
                || t instanceof EOFException) {
            return true;
        }
        if (t instanceof SocketException) {
            return true; // reset, broken pipe, closed by the peer
        }
        if (t instanceof InterruptedIOException && !(t instanceof java.nio.channels.ClosedByInterruptException)) {
            return t.getClass() == InterruptedIOException.class; // a plain one is a timeout in HTTP clients
        }
        if (t instanceof SQLException sql) {
            return isTransientSql(sql);
        }
        return TRANSIENT_TYPES.contains(t.getClass().getName());
    }

    /**
     * A JDBC failure is transient when the connection broke: SQLState class {@code 08} (mssql-jdbc reports a dropped
     * TDS connection as {@code 08S01}), the driver's transient or recoverable connection types, or a timeout.
     */
    public static boolean isTransientSql(SQLException e) {
        if (refused(e)) {
            return false;
        }
        String state = e.getSQLState();
        if ((state != null && state.startsWith("08")) || e instanceof SQLTransientConnectionException
                || e instanceof SQLRecoverableException || e instanceof SQLTimeoutException) {
            return true;
        }
        // a driver's own exception around the socket's (mssql-jdbc's "Connection reset" may carry no SQLState)
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (!(t instanceof SQLException) && transientType(t)) {
                return true;
            }
        }
        return false;
    }

    /** An HTTP status a proxy or an overloaded server answers, that a later attempt may not get. */
    public static boolean isTransientHttpStatus(int status) {
        return status == 408 || status == 429 || status == 502 || status == 503 || status == 504;
    }

    /** A ClickHouse error code of a network fault (the server's message names it, e.g. {@code NETWORK_ERROR}). */
    public static boolean isTransientServerCode(int code) {
        return TRANSIENT_SERVER_CODES.contains(code);
    }
}
