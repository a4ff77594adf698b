package io.dpone.manifest;

/** {@code sink:} of type clickhouse. {@code maxSourceBytes} is null when unbounded. */
public record SinkSpec(String type, String connectionRef, TableRef table, String stagingSchema, String mode,
                       Long maxSourceBytes, SinkOptions options) {
}
