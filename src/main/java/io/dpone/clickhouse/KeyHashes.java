package io.dpone.clickhouse;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The 64-bit typed hashes of a key (one or more columns) over every row of a table, sorted: how a resumed run tells
 * which source rows an earlier attempt already staged when the key is not a single integer (a GUID, text, a date,
 * several columns). The hash is the typed row hash of {@code io.dpone.quality.TypedRowHasher} restricted to the key
 * columns, so the source side computes the same value from a row's RowBinary bytes. 8 bytes per staged row; read in
 * pages of about {@link #PAGE} rows (rows whose hash has the same remainder), each page one query.
 *
 * <p>Two distinct keys with one hash would make the later one look staged and be left out: the row-count and
 * typed-hash gates then fail the run (never a silent loss); at 8 million keys the chance is about 2 in a million.
 */
public final class KeyHashes {
    /** Hashes fetched per query. */
    static final long PAGE = 250_000;

    private final long[] sorted;

    private KeyHashes(long[] sorted) {
        this.sorted = sorted;
    }

    /**
     * Reads the key hashes of {@code database.table} over {@code key}; empty when the table holds more than
     * {@code maxKeys} rows (the caller then does without).
     */
    public static Optional<KeyHashes> read(ClickHouseEndpoint ch, String database, String table, List<String> key,
                                           int maxKeys) {
        String from = ClickHouseSql.table(database, table);
        long rows = Long.parseLong(ch.query("SELECT count() FROM " + from).get(0).get(0));
        if (rows > maxKeys) {
            return Optional.empty();
        }
        long pages = Math.max(1, (rows + PAGE - 1) / PAGE);
        String hash = TableStatsReader.rowHash(key);
        long[] all = new long[(int) rows];
        int n = 0;
        for (long page = 0; page < pages; page++) {
            List<List<String>> got = ch.query("SELECT " + hash + " AS h FROM " + from
                + (pages == 1 ? "" : " WHERE h % " + pages + " = " + page));
            for (List<String> r : got) {
                if (n == all.length) { // rows arrived meanwhile: never in a staging table this run owns
                    all = Arrays.copyOf(all, n * 2 + 1);
                }
                all[n++] = Long.parseUnsignedLong(r.get(0));
            }
        }
        long[] sorted = Arrays.copyOf(all, n);
        Arrays.sort(sorted);
        return Optional.of(new KeyHashes(sorted));
    }

    public boolean contains(long hash) {
        return Arrays.binarySearch(sorted, hash) >= 0;
    }

    /** How many rows the hashes were read from. */
    public int size() {
        return sorted.length;
    }
}
