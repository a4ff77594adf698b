package io.dpone.clickhouse;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The values of an integer key column of a table, as sorted runs of consecutive integers ("islands"), read from
 * ClickHouse in pages. A staging table loaded from a table with an identity-like key holds a few islands per
 * source key range, so the set costs 16 bytes per island rather than per row; a key with gaps everywhere costs
 * up to 16 bytes per row, and {@link #read} gives up beyond {@code maxIslands} rather than hold more.
 */
public final class KeyIslands {
    /** Islands fetched per query: the window runs over the keys above the last page only. */
    static final int PAGE = 100_000;

    private final long[] from;
    private final long[] to;
    private final long keys;

    KeyIslands(long[] from, long[] to) {
        if (from.length != to.length) {
            throw new IllegalArgumentException("islands need both ends");
        }
        this.from = from;
        this.to = to;
        long n = 0;
        for (int i = 0; i < from.length; i++) {
            if (i > 0 && from[i] <= to[i - 1]) {
                throw new IllegalArgumentException("islands must be sorted and disjoint");
            }
            n += to[i] - from[i] + 1;
        }
        this.keys = n;
    }

    /** No key at all. */
    public static KeyIslands empty() {
        return new KeyIslands(new long[0], new long[0]);
    }

    /**
     * Reads the distinct values of integer column {@code key} of {@code database.table}; empty when there are more
     * than {@code maxIslands} runs of consecutive values (the caller then does without).
     */
    public static Optional<KeyIslands> read(ClickHouseEndpoint ch, String database, String table, String key,
                                            int maxIslands) {
        return read(ch, database, table, key, maxIslands, PAGE);
    }

    static Optional<KeyIslands> read(ClickHouseEndpoint ch, String database, String table, String key,
                                     int maxIslands, int pageSize) {
        String k = "toInt64(" + ClickHouseSql.id(key) + ")";
        long[] from = new long[16];
        long[] to = new long[16];
        int n = 0;
        Long after = null;
        while (true) {
            // gaps and islands: consecutive values share (value - rank); DISTINCT first so a repeated key (never
            // in a staging table loaded from a primary key, but cheap to tolerate) cannot split an island
            List<List<String>> page = ch.query("SELECT min(v), max(v) FROM (SELECT v, v - toInt64(row_number() OVER "
                + "(ORDER BY v)) AS g FROM (SELECT DISTINCT " + k + " AS v FROM " + ClickHouseSql.table(database, table)
                + (after == null ? "" : " WHERE " + k + " > " + after) + ")) GROUP BY g ORDER BY 1 LIMIT " + pageSize);
            for (List<String> r : page) {
                if (n == maxIslands) {
                    return Optional.empty();
                }
                if (n == from.length) {
                    from = Arrays.copyOf(from, n * 2);
                    to = Arrays.copyOf(to, n * 2);
                }
                from[n] = Long.parseLong(r.get(0));
                to[n] = Long.parseLong(r.get(1));
                n++;
            }
            if (page.size() < pageSize) {
                return Optional.of(new KeyIslands(Arrays.copyOf(from, n), Arrays.copyOf(to, n)));
            }
            after = to[n - 1];
        }
    }

    public boolean contains(long key) {
        int lo = 0;
        int hi = from.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (key < from[mid]) {
                hi = mid - 1;
            } else if (key > to[mid]) {
                lo = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    /** How many distinct keys the islands hold. */
    public long keys() {
        return keys;
    }

    public int islands() {
        return from.length;
    }
}
