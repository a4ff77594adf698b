package io.dpone.source;

import java.util.ArrayList;
import java.util.List;

/**
 * Where to cut a table into key ranges, and what each range is expected to hold: {@code cuts} are the ranges' inner
 * bounds in the server's order (key prefixes), {@code estimatedRows} one figure per range ({@code cuts.size() + 1}),
 * {@code rows} the table's rows as the source of the bounds counted them, {@code source} where the bounds come from
 * ({@code statistics}: the clustered index's histogram, no row read; {@code key sample}: every n-th key of an ordered
 * read of the key columns).
 */
public record KeyBoundaries(List<List<Object>> cuts, long[] estimatedRows, long rows, String source) {
    public KeyBoundaries {
        cuts = List.copyOf(cuts);
        estimatedRows = estimatedRows.clone();
        if (estimatedRows.length != cuts.size() + 1) {
            throw new IllegalArgumentException("one row estimate per range");
        }
    }

    /**
     * Picks at most {@code n - 1} cuts among candidates: candidate {@code i} is a key with {@code before[i]} rows
     * below it ({@code before} ascending), in a table of {@code total} rows. Each cut is the candidate nearest to an
     * equal share of the rows; a candidate is used once, and one with no row below it (the table's first key) never,
     * so no range is planned empty.
     */
    public static KeyBoundaries choose(List<List<Object>> keys, long[] before, long total, int n, String source) {
        List<List<Object>> cuts = new ArrayList<>();
        List<Long> positions = new ArrayList<>();
        int next = 0;
        for (int i = 1; i < n; i++) {
            double target = (double) total * i / n;
            int best = -1;
            for (int j = next; j < before.length; j++) {
                if (before[j] <= 0 || before[j] >= total) {
                    continue;
                }
                if (best < 0 || Math.abs(before[j] - target) < Math.abs(before[best] - target)) {
                    best = j;
                } else if (before[j] > target) {
                    break; // ascending: only farther from here on
                }
            }
            if (best < 0) {
                break;
            }
            cuts.add(keys.get(best));
            positions.add(before[best]);
            next = best + 1;
        }
        long[] estimated = new long[cuts.size() + 1];
        long from = 0;
        for (int i = 0; i < cuts.size(); i++) {
            estimated[i] = positions.get(i) - from;
            from = positions.get(i);
        }
        estimated[cuts.size()] = total - from;
        return new KeyBoundaries(cuts, estimated, total, source);
    }

    /** The largest range's estimate over the smallest's (1.0: even); infinite when one is expected empty. */
    public double spread() {
        return spread(estimatedRows);
    }

    /** The largest figure over the smallest (1.0: even), infinite when the smallest is 0. */
    public static double spread(long[] rows) {
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long r : rows) {
            min = Math.min(min, r);
            max = Math.max(max, r);
        }
        return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
    }
}
