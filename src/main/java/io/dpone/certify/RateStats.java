package io.dpone.certify;

import java.util.List;

/**
 * The spread of one route's throughput over its measured repetitions, in rows/s: the median (the mean of the two
 * middle values for an even count), the minimum and maximum, {@code spread = max - min} and {@code spread_pct}, the
 * spread as a percentage of the median (one decimal). The [min, max] range is what {@link RouteChoice} compares.
 */
public record RateStats(long median, long min, long max, long spread, double spreadPct) {
    /** No measurement (a blocked or probed route). */
    public static final RateStats NONE = new RateStats(0, 0, 0, 0, 0);

    /** The statistics of {@code values}; {@link #NONE} when there are none. */
    public static RateStats of(List<Long> values) {
        if (values.isEmpty()) {
            return NONE;
        }
        long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int n = v.length;
        long median = n % 2 == 1 ? v[n / 2] : Math.round((v[n / 2 - 1] + (double) v[n / 2]) / 2);
        long spread = v[n - 1] - v[0];
        double pct = median == 0 ? 0 : Math.round(spread * 1000.0 / median) / 10.0;
        return new RateStats(median, v[0], v[n - 1], spread, pct);
    }

    /** Whether this range and {@code other} share at least one value. */
    public boolean overlaps(RateStats other) {
        return min <= other.max && other.min <= max;
    }
}
