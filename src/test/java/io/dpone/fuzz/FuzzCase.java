package io.dpone.fuzz;

import java.util.List;

/**
 * One generated input: its kind ({@code manifest}, {@code context}, {@code events}, {@code checkpoint}), its index in
 * the run (with the seed, enough to generate it again), the mutations applied, its bytes and the planted secret
 * (null when none was planted).
 */
record FuzzCase(String kind, int index, List<Mutation> mutations, byte[] bytes, String secret) {
    Mutation primary() {
        return mutations.get(0);
    }

    String describe(long seed) {
        return kind + " case " + index + " (seed " + seed + ", " + mutations + ", " + bytes.length + " bytes)";
    }
}
