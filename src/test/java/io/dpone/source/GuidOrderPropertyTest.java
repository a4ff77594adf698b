package io.dpone.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link GuidOrder} against a reference written from the documented rule (SQL Server stores a GUID as .NET's
 * {@code Guid.ToByteArray()} does, the first three groups little-endian, and compares the stored bytes in the order
 * 10-15, 8-9, 6-7, 4-5, 0-3, as {@code SqlGuid.CompareTo}); and the key ranges {@link ReadPlan} builds from sorted
 * cuts partition a composite (integer, GUID) key space in that order: every key in exactly one range.
 */
class GuidOrderPropertyTest {
    private static final int[] SQL_SERVER_ORDER = {10, 11, 12, 13, 14, 15, 8, 9, 6, 7, 4, 5, 0, 1, 2, 3};

    /** The 16 bytes as SQL Server (and .NET) store them, from the canonical text. */
    static byte[] stored(UUID u) {
        String hex = u.toString().replace("-", "");
        byte[] text = new byte[16];
        for (int i = 0; i < 16; i++) {
            text[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return new byte[] {text[3], text[2], text[1], text[0], text[5], text[4], text[7], text[6],
            text[8], text[9], text[10], text[11], text[12], text[13], text[14], text[15]};
    }

    static int reference(UUID a, UUID b) {
        byte[] x = stored(a);
        byte[] y = stored(b);
        for (int i : SQL_SERVER_ORDER) {
            int c = Integer.compare(x[i] & 0xFF, y[i] & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @Provide
    Arbitrary<UUID> guids() {
        // random bits, plus GUIDs that differ in one byte only, so every byte position decides some comparisons
        Arbitrary<UUID> random = Arbitraries.longs().tuple2().map(t -> new UUID(t.get1(), t.get2()));
        Arbitrary<UUID> near = Arbitraries.integers().between(0, 15).flatMap(pos -> Arbitraries.integers()
            .between(0, 255).map(v -> {
                char[] hex = "00112233-4455-6677-8899-aabbccddeeff".toCharArray();
                int at = pos * 2 + (pos >= 4 ? 1 : 0) + (pos >= 6 ? 1 : 0) + (pos >= 8 ? 1 : 0) + (pos >= 10 ? 1 : 0);
                String b = String.format("%02x", v);
                hex[at] = b.charAt(0);
                hex[at + 1] = b.charAt(1);
                return UUID.fromString(new String(hex));
            }));
        return Arbitraries.oneOf(random, near);
    }

    @Property(tries = 3000)
    void theOrderIsSqlServersStoredByteOrder(@ForAll("guids") UUID a, @ForAll("guids") UUID b) {
        assertEquals(Integer.signum(reference(a, b)), Integer.signum(GuidOrder.SQL_SERVER.compare(a, b)),
            () -> a + " vs " + b);
        assertEquals(Integer.signum(GuidOrder.SQL_SERVER.compare(a, b)), -Integer.signum(GuidOrder.SQL_SERVER.compare(b, a)));
    }

    @Example
    void theLastGroupDecidesFirstNotTheText() {
        // the SQL Server team's example: textually g1 < g2, but 86FF976E763F > 393AE6BBB849 decides
        UUID g1 = UUID.fromString("55666BEE-B3A0-4BF5-81A7-86FF976E763F");
        UUID g2 = UUID.fromString("8DD5BCA5-6ABE-4F73-B4B7-393AE6BBB849");
        assertTrue(g1.toString().compareTo(g2.toString()) < 0);
        assertTrue(GuidOrder.SQL_SERVER.compare(g1, g2) > 0);
        // within the first group the stored (little-endian) order: the text's last byte is the most significant
        assertTrue(GuidOrder.SQL_SERVER.compare(UUID.fromString("ff000001-0000-0000-0000-000000000000"),
            UUID.fromString("00000002-0000-0000-0000-000000000000")) < 0);
    }

    @Property(tries = 400)
    void rangesFromSortedCutsPartitionACompositeKey(@ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 5) Integer> firsts,
                                                     @ForAll("guids") UUID seed, @ForAll @IntRange(min = 2, max = 9) int readers,
                                                     @ForAll boolean prefixCuts) {
        Comparator<Object> ints = Comparator.comparing(o -> (Integer) o);
        Comparator<Object> guids = (x, y) -> GuidOrder.SQL_SERVER.compare((UUID) x, (UUID) y);
        List<Comparator<Object>> order = List.of(ints, guids);
        Comparator<List<Object>> rows = (x, y) -> {
            int c = ints.compare(x.get(0), y.get(0));
            return c != 0 ? c : guids.compare(x.get(1), y.get(1));
        };
        java.util.Random random = new java.util.Random(seed.getMostSignificantBits());
        Set<List<Object>> distinct = new HashSet<>();
        for (Integer f : firsts) {
            distinct.add(List.of(f, new UUID(random.nextLong(), random.nextLong())));
        }
        List<List<Object>> keys = new ArrayList<>(distinct);
        keys.sort(rows); // what the server's ORDER BY returns
        long[] before = new long[keys.size()];
        List<List<Object>> candidates = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            before[i] = i;
            candidates.add(prefixCuts ? List.of(keys.get(i).get(0)) : keys.get(i));
        }
        KeyBoundaries b = KeyBoundaries.choose(candidates, before, keys.size(), readers, "test");
        List<KeyRange> ranges = new ArrayList<>();
        List<Object> from = null;
        for (List<Object> cut : b.cuts()) {
            ranges.add(new KeyRange(List.of("a", "g"), from, cut));
            from = cut;
        }
        ranges.add(new KeyRange(List.of("a", "g"), from, null));
        for (List<Object> k : keys) {
            long in = ranges.stream().filter(r -> r.contains(k, order)).count();
            assertEquals(1, in, () -> k + " in " + in + " of " + ranges);
        }
    }
}
