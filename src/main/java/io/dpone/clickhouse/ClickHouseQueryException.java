package io.dpone.clickhouse;

/**
 * ClickHouse rejected a statement. The message is ClickHouse's as the redaction layer's server-text rules leave it
 * ({@link io.dpone.connect.Redactor#serverText}: hosts, userinfo, e-mail addresses and credential values masked by
 * shape, cut to 2,000 characters), so no path that carries it on can echo what a server put in its error body.
 */
public final class ClickHouseQueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ClickHouseQueryException(String message) {
        super(io.dpone.connect.Redactor.global().serverText(message));
    }
}
