package io.dpone.source;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits {@code [min, max]} of an integer key into at most {@code n} ranges of equal key width (boundaries from
 * MIN/MAX, an index seek at each end; no scan). The first range is open below and the last open above, so the
 * ranges partition every possible key: a row is read exactly once even if the bounds are stale. When the span holds
 * fewer than {@code n} keys, fewer ranges come back (never an empty one). Skewed keys give unbalanced ranges, never
 * wrong ones.
 */
public final class KeyRangeSplitter {
    private KeyRangeSplitter() {
    }

    public static List<KeyRange> split(String column, long min, long max, int n) {
        if (min > max) {
            throw new IllegalArgumentException("min > max");
        }
        BigInteger lo = BigInteger.valueOf(min);
        BigInteger span = BigInteger.valueOf(max).subtract(lo).add(BigInteger.ONE); // no overflow at the extremes
        List<Long> cuts = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            long cut = lo.add(span.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(n))).longValueExact();
            if (cut > min && (cuts.isEmpty() || cut > cuts.get(cuts.size() - 1))) {
                cuts.add(cut);
            }
        }
        List<KeyRange> ranges = new ArrayList<>();
        Long from = null;
        for (long cut : cuts) {
            ranges.add(new KeyRange(column, from, cut));
            from = cut;
        }
        ranges.add(new KeyRange(column, from, null));
        return ranges;
    }

    /** {@code max - min + 1}, saturated at {@link Long#MAX_VALUE}: for a unique key, an upper bound on the rows. */
    public static long span(long min, long max) {
        BigInteger s = BigInteger.valueOf(max).subtract(BigInteger.valueOf(min)).add(BigInteger.ONE);
        return s.bitLength() < 64 ? s.longValue() : Long.MAX_VALUE;
    }
}
