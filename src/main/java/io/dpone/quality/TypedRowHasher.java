package io.dpone.quality;

import io.dpone.source.SourceColumn;
import io.dpone.source.types.BinaryType;
import io.dpone.source.types.StringType;
import java.util.List;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The typed hash, source side: what the {@code typed_hash}, fidelity and distinct-count gates compare. Defined on
 * each value's exact RowBinary bytes, so floats count by bits, decimals by their unscaled integer at the column's
 * scale, text by its UTF-8 bytes and timestamps by ticks:
 * <ul>
 *   <li>value hash: xxHash64 (seed 0) of the value's RowBinary bytes without the Nullable flag byte and, for
 *       {@code String}, without the length prefix; a NULL hashes to {@link #NULL_HASH};</li>
 *   <li>row hash: ClickHouse's multi-argument {@code xxHash64(v1, ..., vn)} over the row's value hashes, which is
 *       {@code acc = xxHash64(le64(v1))}, then {@code acc = Hash128to64(acc, xxHash64(le64(vi)))} for each next
 *       value ({@link #combine});</li>
 *   <li>the table's typed hash is the wrap-around sum of its row hashes (order-independent), a fidelity column's
 *       the sum of its value hashes, a distinct column's count the number of distinct value hashes.</li>
 * </ul>
 * The target side is {@code xxHash64(ifNull(xxHash64(c1), NULL_HASH), ...)} in ClickHouse
 * ({@code TableStatsReader}): native, vectorised hash functions, where the former definition (xxHash64 over
 * {@code formatRow('RowBinary', ...)}) serialised every row again and cost the gate about twice the CPU.
 * ClickHouse's single-argument {@code xxHash64} of a fixed-size value hashes its in-memory bytes, which are its
 * RowBinary bytes; its way of combining arguments is internal to ClickHouse, stable because sharding keys depend on
 * it, and pinned by {@code TypedHashEngineTest} for every mapped type. Should a server ever combine differently,
 * the gate fails red on every run; it cannot pass a changed value.
 */
public final class TypedRowHasher {
    /** The value hash of NULL (the golden-ratio constant; any fixed value would do). */
    public static final long NULL_HASH = 0x9E3779B97F4A7C15L;

    private static final XXHash64 XXH = XXHashFactory.fastestJavaInstance().hash64();
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;
    private static final long K_MUL = 0x9DDFEA08EB382D69L;

    private final boolean[] nullable;
    private final boolean[] lengthPrefixed;
    private final long[] valueHashes;

    public TypedRowHasher(List<SourceColumn> columns) {
        int n = columns.size();
        nullable = new boolean[n];
        lengthPrefixed = new boolean[n];
        for (int i = 0; i < n; i++) {
            nullable[i] = columns.get(i).nullable();
            lengthPrefixed[i] = columns.get(i).type() instanceof StringType
                || columns.get(i).type() instanceof BinaryType;
        }
        valueHashes = new long[n];
    }

    /**
     * Hashes one RowBinary row ({@code offsets[i]..offsets[i+1]}: column i's bytes) and returns its row hash; the
     * value hashes are left in {@link #valueHashes()} until the next call.
     */
    public long hash(byte[] row, int[] offsets) {
        long acc = 0;
        for (int i = 0; i < valueHashes.length; i++) {
            long v = valueHash(row, offsets[i], offsets[i + 1], nullable[i], lengthPrefixed[i]);
            valueHashes[i] = v;
            acc = i == 0 ? xxHash64(v) : combine(acc, v);
        }
        return acc;
    }

    /**
     * The hash of the values of {@code columns} (indexes into the row, in that order) of one RowBinary row, combined
     * as a row hash is: what ClickHouse computes as {@code xxHash64(ifNull(xxHash64(c1), NULL_HASH), ...)} over those
     * columns (a staged row's key, {@code io.dpone.clickhouse.KeyHashes}).
     */
    public long hash(byte[] row, int[] offsets, int[] columns) {
        long acc = 0;
        for (int j = 0; j < columns.length; j++) {
            int i = columns[j];
            long v = valueHash(row, offsets[i], offsets[i + 1], nullable[i], lengthPrefixed[i]);
            acc = j == 0 ? xxHash64(v) : combine(acc, v);
        }
        return acc;
    }

    private static long valueHash(byte[] row, int from, int end, boolean nullable, boolean lengthPrefixed) {
        int p = from;
        if (nullable && row[p++] != 0) {
            return NULL_HASH;
        }
        if (lengthPrefixed) {
            while (row[p++] < 0) { // LEB128 length: continuation bit set on every byte but the last
            }
        }
        return XXH.hash(row, p, end - p, 0);
    }

    /** The value hashes of the row last passed to {@link #hash}, one per column. */
    public long[] valueHashes() {
        return valueHashes;
    }

    /**
     * The row hash of a subset of a row's columns (e.g. its key columns), from the value hashes {@link #hash} left
     * in {@link #valueHashes()}: the same combination as a row's, so ClickHouse's
     * {@code xxHash64(ifNull(xxHash64(k1), NULL_HASH), ...)} over those columns gives the same number.
     */
    public static long combined(long[] valueHashes, int[] columns) {
        long acc = 0;
        for (int i = 0; i < columns.length; i++) {
            long v = valueHashes[columns[i]];
            acc = i == 0 ? xxHash64(v) : combine(acc, v);
        }
        return acc;
    }

    /** One step of ClickHouse's multi-argument xxHash64: CityHash 1.0.2's Hash128to64(acc, xxHash64(le64(v))). */
    static long combine(long acc, long value) {
        long hi = xxHash64(value);
        long a = (acc ^ hi) * K_MUL;
        a ^= a >>> 47;
        long b = (hi ^ a) * K_MUL;
        b ^= b >>> 47;
        return b * K_MUL;
    }

    /**
     * xxHash64 (seed 0) of the 8 little-endian bytes of {@code v}: the algorithm's path for an 8-byte input, written
     * out because it runs once per value and the general entry point (array, offset, length) costs several times
     * more for so short an input. {@code TypedRowHasherTest} checks it against lz4-java's implementation.
     */
    static long xxHash64(long v) {
        long h = P5 + 8;
        long k = Long.rotateLeft(v * P2, 31) * P1;
        h ^= k;
        h = Long.rotateLeft(h, 27) * P1 + P4;
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }
}
