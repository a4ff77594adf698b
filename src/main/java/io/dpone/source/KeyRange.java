package io.dpone.source;

/**
 * A half-open range of a single-column integer primary key: {@code fromInclusive <= key < toExclusive}, where a
 * {@code null} end is open. The ranges of one split cover the whole integer line, so every row falls in exactly one.
 */
public record KeyRange(String column, Long fromInclusive, Long toExclusive) {
    public KeyRange {
        SqlServerDialect.quote(column); // validated here, quoted where the SQL is built
        if (fromInclusive != null && toExclusive != null && fromInclusive >= toExclusive) {
            throw new IllegalArgumentException("empty key range");
        }
    }

    public boolean contains(long key) {
        return (fromInclusive == null || key >= fromInclusive) && (toExclusive == null || key < toExclusive);
    }
}
