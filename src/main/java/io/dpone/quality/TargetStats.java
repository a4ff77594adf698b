package io.dpone.quality;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The same measures as {@link SourceStats}, computed by ClickHouse on the loaded table, plus metadata checks;
 * {@code metadataColumns} names the metadata columns those checks looked for.
 */
public record TargetStats(long rows, Map<String, Long> nullCounts, long typedHash, long hashedRows,
                          boolean metadataColumnsPresent, long rowsWithBadMetadata, Map<String, Long> columnHashes,
                          Map<String, Long> distinctCounts, List<String> metadataColumns) {
    public TargetStats {
        nullCounts = Map.copyOf(nullCounts);
        columnHashes = Map.copyOf(columnHashes);
        distinctCounts = Map.copyOf(distinctCounts);
        metadataColumns = List.copyOf(metadataColumns);
    }

    /** Stats whose metadata checks name no columns. */
    public TargetStats(long rows, Map<String, Long> nullCounts, long typedHash, long hashedRows,
                       boolean metadataColumnsPresent, long rowsWithBadMetadata, Map<String, Long> columnHashes,
                       Map<String, Long> distinctCounts) {
        this(rows, nullCounts, typedHash, hashedRows, metadataColumnsPresent, rowsWithBadMetadata, columnHashes,
            distinctCounts, List.of());
    }

    /**
     * The stats of the union of two disjoint row sets: counts add, hash sums add with wrap-around (as they are
     * summed), metadata presence must hold for both. Distinct counts are not additive: the result has none.
     */
    public TargetStats plus(TargetStats other) {
        return new TargetStats(rows + other.rows, sum(nullCounts, other.nullCounts), typedHash + other.typedHash,
            hashedRows + other.hashedRows, metadataColumnsPresent && other.metadataColumnsPresent,
            rowsWithBadMetadata + other.rowsWithBadMetadata, sum(columnHashes, other.columnHashes), Map.of(),
            metadataColumns.isEmpty() ? other.metadataColumns : metadataColumns);
    }

    /** These stats with {@code distinct} as the distinct counts. */
    public TargetStats withDistinctCounts(Map<String, Long> distinct) {
        return new TargetStats(rows, nullCounts, typedHash, hashedRows, metadataColumnsPresent, rowsWithBadMetadata,
            columnHashes, distinct, metadataColumns);
    }

    private static Map<String, Long> sum(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> m = new HashMap<>(a);
        b.forEach((k, v) -> m.merge(k, v, Long::sum));
        return m;
    }
}
