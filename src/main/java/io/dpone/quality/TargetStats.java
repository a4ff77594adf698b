package io.dpone.quality;

import java.util.Map;

/** The same measures as {@link SourceStats}, computed by ClickHouse on the loaded table, plus metadata checks. */
public record TargetStats(long rows, Map<String, Long> nullCounts, long typedHash, long hashedRows,
                          boolean metadataColumnsPresent, long rowsWithBadMetadata, Map<String, Long> columnHashes,
                          Map<String, Long> distinctCounts) {
    public TargetStats {
        nullCounts = Map.copyOf(nullCounts);
        columnHashes = Map.copyOf(columnHashes);
        distinctCounts = Map.copyOf(distinctCounts);
    }
}
