package io.dpone.clickhouse.chdb;

/** A query or lifecycle error reported by the embedded ClickHouse engine. */
public final class ChdbException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ChdbException(String message) {
        super(message);
    }
}
