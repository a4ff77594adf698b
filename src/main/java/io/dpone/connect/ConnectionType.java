package io.dpone.connect;

/** The kinds of connection a context alias may name. */
public enum ConnectionType {
    MSSQL, CLICKHOUSE, S3;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
