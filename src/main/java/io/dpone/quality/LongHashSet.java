package io.dpone.quality;

/**
 * A set of {@code long}s in one open-addressing array (linear probing, load factor at most 1/2, power-of-two
 * capacity). Hand-written because the distinct-count gate adds one 64-bit value hash per row: a
 * {@code HashSet<Long>} costs a boxed {@code Long} plus a map node per distinct value (about 50 bytes, and young-GC
 * copying of millions of them), this costs 16 bytes per value at most and allocates only when it grows. No
 * primitive-collections library is on the classpath, and this is the only place that needs one.
 */
final class LongHashSet {
    private static final long MIX = 0x9E3779B97F4A7C15L;

    private long[] slots;
    private int size;
    /** {@code 0} marks a free slot, so the value 0 itself is tracked here. */
    private boolean hasZero;

    LongHashSet() {
        slots = new long[1024];
    }

    /** Adds {@code v}; true if it was not present. */
    boolean add(long v) {
        if (v == 0) {
            if (hasZero) {
                return false;
            }
            hasZero = true;
            return true;
        }
        int mask = slots.length - 1;
        int i = index(v, mask);
        while (true) {
            long s = slots[i];
            if (s == 0) {
                slots[i] = v;
                if (++size * 2 > slots.length) {
                    grow();
                }
                return true;
            }
            if (s == v) {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    long size() {
        return size + (hasZero ? 1L : 0L);
    }

    private static int index(long v, int mask) {
        long h = v * MIX;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long v : old) {
            if (v != 0) {
                int i = index(v, mask);
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = v;
            }
        }
    }
}
