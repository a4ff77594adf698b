package io.dpone.testing.mssql.tds;

/** A client message the twin cannot parse: the connection is closed, as SQL Server closes it. */
final class TdsProtocolException extends RuntimeException {
    TdsProtocolException(String message) {
        super(message);
    }
}
