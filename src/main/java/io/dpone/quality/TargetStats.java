package io.dpone.quality;

import java.util.Map;

/** The same measures as {@link SourceStats}, computed by ClickHouse on the loaded table, plus metadata checks. */
public record TargetStats(long rows, Map<String, Long> nullCounts, long typedHash, long hashedRows,
                          boolean metadataColumnsPresent, long rowsWithBadMetadata) {
    public TargetStats {
        nullCounts = Map.copyOf(nullCounts);
    }
}
