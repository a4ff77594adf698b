package io.dpone.quality;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-column evidence gathered while rows stream, from the value hashes of {@link TypedRowHasher}: for each hashed
 * column (the ones a fidelity gate compares, see {@link FidelityColumns}) the wrap-around sum of its value hashes,
 * and for the configured distinct columns the set of value hashes (the distinct-count gate). ClickHouse computes
 * the same from the loaded table. Distinct sets cost memory per distinct value,
 * so only columns listed in {@code quality.distinct_columns} get one; the source's single-column, non-NULL primary
 * key gets none, because its constraint makes its distinct count the row count (ClickHouse still counts the
 * target's distinct values, so a duplicated or lost key fails the gate).
 */
public final class ColumnDigests {
    private final List<String> columns;
    private final int[] hashedIndex;
    private final long[] sums;
    private final int[] distinctIndex;
    private final LongHashSet[] distinct;
    /** Per distinct column: it is the source's unique key (counted by rows, no set). */
    private final boolean[] unique;
    private long rows;

    /** {@code hashedColumns}: the columns that get a per-column hash (a subset of {@code columns}). */
    public ColumnDigests(List<String> columns, List<String> hashedColumns, List<String> distinctColumns) {
        this(columns, hashedColumns, distinctColumns, null);
    }

    /**
     * {@code uniqueKey}: the source's single-column primary key when it is declared NOT NULL, else null; as a
     * distinct column it is counted by rows.
     */
    public ColumnDigests(List<String> columns, List<String> hashedColumns, List<String> distinctColumns,
                         String uniqueKey) {
        this.columns = List.copyOf(columns);
        this.hashedIndex = hashedColumns.stream().mapToInt(d -> indexOf(columns, d)).filter(i -> i >= 0).toArray();
        this.sums = new long[hashedIndex.length];
        this.distinctIndex = distinctColumns.stream().mapToInt(d -> indexOf(columns, d)).filter(i -> i >= 0).toArray();
        this.distinct = new LongHashSet[distinctIndex.length];
        this.unique = new boolean[distinctIndex.length];
        for (int i = 0; i < distinct.length; i++) {
            unique[i] = uniqueKey != null && columns.get(distinctIndex[i]).equalsIgnoreCase(uniqueKey);
            distinct[i] = unique[i] ? null : new LongHashSet();
        }
    }

    private static int indexOf(List<String> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Adds one row, given as its value hashes ({@link TypedRowHasher#valueHashes()}, one per column). */
    public void add(long[] valueHashes) {
        for (int k = 0; k < sums.length; k++) {
            sums[k] += valueHashes[hashedIndex[k]];
        }
        rows++;
        for (int k = 0; k < distinctIndex.length; k++) {
            if (unique[k]) {
                continue;
            }
            distinct[k].add(valueHashes[distinctIndex[k]]);
        }
    }

    public Map<String, Long> columnHashes() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int k = 0; k < sums.length; k++) {
            m.put(columns.get(hashedIndex[k]), sums[k]);
        }
        return m;
    }

    public Map<String, Long> distinctCounts() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int k = 0; k < distinctIndex.length; k++) {
            m.put(columns.get(distinctIndex[k]), unique[k] ? rows : distinct[k].size());
        }
        return m;
    }
}
