package io.dpone.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.dpone.format.ByteBuf;
import io.dpone.format.RowBinaryEncoder;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.StringType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;
import org.junit.jupiter.api.Test;

/** The source half of the typed hash in isolation (the engine half is pinned by TypedHashEngineTest). */
class TypedRowHasherTest {
    private static final XXHash64 REFERENCE = XXHashFactory.safeInstance().hash64();
    private static final List<SourceColumn> COLUMNS = List.of(
        new SourceColumn("id", "int", false, new IntegerType(32, false)),
        new SourceColumn("name", "nvarchar", true, new StringType()));

    private static long reference(long v) {
        byte[] b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
        return REFERENCE.hash(b, 0, 8, 0);
    }

    @Test
    void theEightByteXxHash64IsTheReferenceAlgorithm() {
        SplittableRandom random = new SplittableRandom(7);
        for (long v : new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, TypedRowHasher.NULL_HASH}) {
            assertEquals(reference(v), TypedRowHasher.xxHash64(v));
        }
        for (int i = 0; i < 10_000; i++) {
            long v = random.nextLong();
            assertEquals(reference(v), TypedRowHasher.xxHash64(v));
        }
    }

    @Test
    void clickHouseCombinesArgumentsWithHash128to64() {
        // SELECT xxHash64(toUInt64(5), toUInt64(18446744073709551615)) on ClickHouse 26.5 (chDB): 15264827476291980537
        long acc = TypedRowHasher.combine(TypedRowHasher.xxHash64(5), -1);
        assertEquals("15264827476291980537", Long.toUnsignedString(acc));
    }

    private static long rowHash(TypedRowHasher hasher, Object... row) {
        RowBinaryEncoder encoder = new RowBinaryEncoder(COLUMNS);
        ByteBuf buf = new ByteBuf(16);
        int[] offsets = new int[COLUMNS.size() + 1];
        encoder.encode(row, buf, offsets);
        return hasher.hash(buf.array(), offsets);
    }

    @Test
    void valueHashesSkipTheNullFlagAndTheLengthPrefix() {
        TypedRowHasher hasher = new TypedRowHasher(COLUMNS);
        for (int length : new int[] {0, 1, 127, 128, 16_383, 16_384, 70_000}) {
            String s = "\u00e9".repeat(length / 2) + "a".repeat(length % 2);
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            long row = rowHash(hasher, 7L, s);
            assertEquals(REFERENCE.hash(utf8, 0, utf8.length, 0), hasher.valueHashes()[1], "length " + length);
            assertEquals(REFERENCE.hash(new byte[] {7, 0, 0, 0}, 0, 4, 0), hasher.valueHashes()[0]);
            assertEquals(TypedRowHasher.combine(TypedRowHasher.xxHash64(hasher.valueHashes()[0]),
                hasher.valueHashes()[1]), row);
        }
        rowHash(hasher, 7L, null);
        assertEquals(TypedRowHasher.NULL_HASH, hasher.valueHashes()[1]);
    }

    @Test
    void nullEmptyAndSwappedValuesAllHashDifferently() {
        TypedRowHasher hasher = new TypedRowHasher(COLUMNS);
        long nul = rowHash(hasher, 1L, null);
        long empty = rowHash(hasher, 1L, "");
        assertNotEquals(nul, empty);
        // the same values in other rows: a per-row hash, not a per-column sum
        long a = rowHash(hasher, 1L, "x") + rowHash(hasher, 2L, "y");
        long b = rowHash(hasher, 1L, "y") + rowHash(hasher, 2L, "x");
        assertNotEquals(a, b);
    }

    /**
     * {@code combined} over a subset of the columns (a compound key, in any order) is the row hash of a row of only
     * those columns, which ClickHouse computes as {@code xxHash64(ifNull(xxHash64(k1), NULL_HASH), ...)}.
     */
    @Test
    void aSubsetOfTheColumnsHashesAsARowOfThoseColumns() {
        TypedRowHasher hasher = new TypedRowHasher(COLUMNS);
        long whole = rowHash(hasher, 42L, "kéy");
        long[] values = hasher.valueHashes().clone();
        assertEquals(whole, TypedRowHasher.combined(values, new int[] {0, 1}));
        assertEquals(TypedRowHasher.xxHash64(values[1]), TypedRowHasher.combined(values, new int[] {1}));
        List<SourceColumn> swapped = List.of(COLUMNS.get(1), COLUMNS.get(0));
        RowBinaryEncoder encoder = new RowBinaryEncoder(swapped);
        ByteBuf buf = new ByteBuf(16);
        int[] offsets = new int[3];
        encoder.encode(new Object[] {"kéy", 42L}, buf, offsets);
        assertEquals(new TypedRowHasher(swapped).hash(buf.array(), offsets),
            TypedRowHasher.combined(values, new int[] {1, 0}));
        assertNotEquals(TypedRowHasher.combined(values, new int[] {0, 1}), TypedRowHasher.combined(values,
            new int[] {1, 0}), "the key order matters");
    }
}
