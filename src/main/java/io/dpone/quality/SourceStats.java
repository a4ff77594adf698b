package io.dpone.quality;

import java.util.List;
import java.util.Map;

/**
 * What the source side saw while streaming: rows, NULLs per column, and the order-independent typed hash (the
 * wrapping sum of the row hashes of {@link TypedRowHasher}, restricted to the sample when sampled).
 */
public record SourceStats(long rows, Map<String, Long> nullCounts, long typedHash, long hashedRows, long bytes,
                          Map<String, Long> columnHashes, Map<String, Long> distinctCounts) {
    public SourceStats {
        nullCounts = Map.copyOf(nullCounts);
        columnHashes = Map.copyOf(columnHashes);
        distinctCounts = Map.copyOf(distinctCounts);
    }

    public static SourceStats of(long rows, List<String> columns, long[] nulls, long hash, long hashedRows, long bytes,
                                 ColumnDigests digests) {
        java.util.LinkedHashMap<String, Long> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            m.put(columns.get(i), nulls[i]);
        }
        return new SourceStats(rows, m, hash, hashedRows, bytes, digests.columnHashes(), digests.distinctCounts());
    }
}
