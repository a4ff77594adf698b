package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * {@code source:}. {@code columns} empty means every column; {@code nativeTransfer} is the spec's
 * {@code options.native_transfer} block (validated by the schema; read by the columnar routes).
 * {@code valuePolicies} is {@code value_policy} (what happens to values ClickHouse cannot hold; refuse by default).
 * {@code parallelReaders} (default 1: one reader) splits the read into that many ranges of the primary key (any
 * number of integer, decimal, text, uniqueidentifier, date or date-time columns), unless the table holds fewer than
 * {@code parallelMinRows} rows (see docs/manifest.md).
 */
public record SourceSpec(String type, String connectionRef, TableRef table, List<String> columns, int fetchSize,
                         int chunkRows, JsonNode nativeTransfer, int parallelReaders, long parallelMinRows,
                         ValuePolicies valuePolicies) {
    public static final int DEFAULT_FETCH_SIZE = 10_000;
    public static final int DEFAULT_CHUNK_ROWS = 100_000;
    public static final int DEFAULT_PARALLEL_READERS = 1;
    public static final long DEFAULT_PARALLEL_MIN_ROWS = 1_000_000;

    /** One reader (no key-range split). */
    public SourceSpec(String type, String connectionRef, TableRef table, List<String> columns, int fetchSize,
                      int chunkRows, JsonNode nativeTransfer) {
        this(type, connectionRef, table, columns, fetchSize, chunkRows, nativeTransfer, DEFAULT_PARALLEL_READERS,
            DEFAULT_PARALLEL_MIN_ROWS, ValuePolicies.NONE);
    }

    public SourceSpec {
        columns = List.copyOf(columns);
        nativeTransfer = nativeTransfer == null ? null : nativeTransfer.deepCopy();
        valuePolicies = valuePolicies == null ? ValuePolicies.NONE : valuePolicies;
    }
}
