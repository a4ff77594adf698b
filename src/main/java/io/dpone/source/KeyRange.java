package io.dpone.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A half-open range of a primary key in the source server's order: {@code from <= key < to}, compared as row values
 * (lexicographically over the key columns, as the clustered index orders them). A bound is a prefix of the key (1 to
 * n values: a bound from a statistics histogram names the leading column only) or {@code null} for an open end. The
 * ranges of one split share their bounds (each range's {@code to} is the next one's {@code from}), the first is open
 * below and the last open above, so every row falls in exactly one whatever the server's order is, as long as the
 * server orders the bounds as it orders the rows (the bounds come from its own index or statistics).
 */
public record KeyRange(List<String> columns, List<Object> from, List<Object> to) {
    public KeyRange {
        columns = List.copyOf(columns);
        columns.forEach(SqlServerDialect::quote); // validated here, quoted where the SQL is built
        from = bound(columns, from);
        to = bound(columns, to);
    }

    /** A range of a single-column key. */
    public KeyRange(String column, Object fromInclusive, Object toExclusive) {
        this(List.of(column), fromInclusive == null ? null : List.of(fromInclusive),
            toExclusive == null ? null : List.of(toExclusive));
    }

    private static List<Object> bound(List<String> columns, List<Object> values) {
        if (values == null) {
            return null;
        }
        if (values.isEmpty() || values.size() > columns.size()) {
            throw new IllegalArgumentException("a key bound holds 1 to " + columns.size() + " values");
        }
        values.forEach(Objects::requireNonNull); // primary key columns are NOT NULL
        return Collections.unmodifiableList(new ArrayList<>(values));
    }

    /**
     * Whether {@code key} (one value per key column) lies in this range under {@code order} (one comparator per
     * column: the server's order of that column). The Java twin of the range predicate
     * {@link SqlServerDialect#rangePredicate} writes: a key is at or above a prefix bound when its first values are.
     */
    public boolean contains(List<Object> key, List<Comparator<Object>> order) {
        return (from == null || compare(key, from, order) >= 0) && (to == null || compare(key, to, order) < 0);
    }

    /** Compares {@code key} with the prefix {@code bound}: equal when the key starts with the bound's values. */
    static int compare(List<Object> key, List<Object> bound, List<Comparator<Object>> order) {
        for (int i = 0; i < bound.size(); i++) {
            int c = order.get(i).compare(key.get(i), bound.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
