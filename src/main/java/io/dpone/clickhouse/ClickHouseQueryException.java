package io.dpone.clickhouse;

/** ClickHouse rejected a statement. The message is ClickHouse's; it reaches users only through redaction. */
public final class ClickHouseQueryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ClickHouseQueryException(String message) {
        super(message);
    }
}
