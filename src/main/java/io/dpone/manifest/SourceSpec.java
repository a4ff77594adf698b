package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * {@code source:}. {@code columns} empty means every column; {@code nativeTransfer} is the spec's
 * {@code options.native_transfer} block (validated by the schema; read by the columnar routes).
 */
public record SourceSpec(String type, String connectionRef, TableRef table, List<String> columns, int fetchSize,
                         int chunkRows, JsonNode nativeTransfer) {
    public static final int DEFAULT_FETCH_SIZE = 10_000;
    public static final int DEFAULT_CHUNK_ROWS = 100_000;

    public SourceSpec {
        columns = List.copyOf(columns);
        nativeTransfer = nativeTransfer == null ? null : nativeTransfer.deepCopy();
    }
}
