package io.dpone.clickhouse;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Distinct counts of a sort-key column gathered batch by batch: each loaded batch's {@code min}, {@code max} and
 * exact distinct count. When the batches' [min, max] ranges are pairwise disjoint no value occurs in two batches,
 * so the table's distinct count is the sum, and the gate needs no read of the whole column at the end (which held
 * or merged every key: +108-170 MB at 5M keys). Any overlap (parallel readers, an unordered source) and the caller
 * counts the whole table instead.
 *
 * <p>The ranges are compared here, in Java, on ClickHouse's JSON text of the values, so only types whose text
 * orders exactly as ClickHouse orders the values take part: integers (as {@link BigInteger}), decimals (as
 * {@link BigDecimal}) and dates and times (fixed-width text, years 1900-2299). Strings, UUIDs and the rest are
 * not tracked (ClickHouse compares strings as bytes, which the JSON text does not always keep, and UUIDs by halves).
 */
final class KeyRanges {
    private static final Pattern INTEGER = Pattern.compile("U?Int\\d+");
    private static final Pattern DECIMAL = Pattern.compile("Decimal\\(\\d+, \\d+\\)");
    private static final Pattern TEMPORAL = Pattern.compile("Date|Date32|DateTime|DateTime64\\(\\d+\\)");

    private record Range(Comparable<Object> min, Comparable<Object> max, long distinct) {
    }

    private final Function<String, Comparable<Object>> parse;
    private final List<Range> ranges = new ArrayList<>();

    private KeyRanges(Function<String, Comparable<Object>> parse) {
        this.parse = parse;
    }

    /** Ranges for a column of ClickHouse type {@code type}, when its JSON text orders as ClickHouse does. */
    @SuppressWarnings("unchecked")
    static Optional<KeyRanges> forType(String type) {
        if (INTEGER.matcher(type).matches()) {
            return Optional.of(new KeyRanges(s -> (Comparable<Object>) (Comparable<?>) new BigInteger(s)));
        }
        if (DECIMAL.matcher(type).matches()) {
            return Optional.of(new KeyRanges(s -> (Comparable<Object>) (Comparable<?>) new BigDecimal(s)));
        }
        if (TEMPORAL.matcher(type).matches()) {
            return Optional.of(new KeyRanges(s -> (Comparable<Object>) (Comparable<?>) s));
        }
        return Optional.empty();
    }

    /** One batch: its min and max as ClickHouse printed them, and its exact distinct count (0 rows: ignored). */
    void add(String min, String max, long distinct) {
        if (distinct > 0) {
            ranges.add(new Range(parse.apply(min), parse.apply(max), distinct));
        }
    }

    /** The sum of the batches' distinct counts when no two ranges overlap; empty otherwise. */
    OptionalLong disjointSum() {
        List<Range> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparing(Range::min));
        long sum = 0;
        for (int i = 0; i < sorted.size(); i++) {
            if (i > 0 && sorted.get(i - 1).max().compareTo(sorted.get(i).min()) >= 0) {
                return OptionalLong.empty();
            }
            sum += sorted.get(i).distinct();
        }
        return OptionalLong.of(sum);
    }
}
