package io.dpone.cdc;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.function.BiFunction;

/**
 * Runs a per-event computation of a CDC batch over contiguous slices of the batch at once: the calling thread takes
 * the first slice, the common fork-join pool the others, and the results come back in slice order. Used where a
 * tick spends CPU per event that does not depend on other events (SHA-256 of event identities, the typed-value
 * check, the spool's encoding): on two cores both cores share that work (bench/README.md, "CDC first tick, session
 * 11").
 *
 * <p>Hand-written over {@link RecursiveTask} rather than a parallel stream because the callers need the slices'
 * results in order as whole slices (one buffer per slice) and a failure exactly as the slice threw it: a slice
 * catches its own exception and the caller rethrows that same object ({@link RecursiveTask#join} would rebuild an
 * exception thrown on another thread by reflection, losing a typed exception's blockers).
 */
public final class ParallelSlices {
    /** Below this many items per slice the fork costs more than it saves; one slice then runs in the caller. */
    static final int MIN_SLICE = 4096;

    private ParallelSlices() {
    }

    /** How many slices {@code size} items get: one per available core, each at least {@link #MIN_SLICE} items. */
    public static int slices(int size) {
        int cores = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(),
            ForkJoinPool.getCommonPoolParallelism() + 1));
        return Math.max(1, Math.min(cores, size / MIN_SLICE));
    }

    /**
     * {@code work.apply(from, to)} for contiguous slices {@code [from, to)} covering {@code [0, size)}, the results in
     * slice order. An unchecked exception of a slice is rethrown as it is (the lowest failing slice's, when several
     * fail); the other slices still finish first, so no slice runs on after this returns.
     */
    public static <R> List<R> map(int size, BiFunction<Integer, Integer, R> work) {
        int n = slices(size);
        if (n == 1) {
            return Collections.singletonList(work.apply(0, size)); // a slice may answer null
        }
        List<RecursiveTask<Outcome<R>>> tasks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int from = (int) ((long) size * i / n);
            int to = (int) ((long) size * (i + 1) / n);
            tasks.add(new RecursiveTask<>() {
                @Override
                protected Outcome<R> compute() {
                    try {
                        return new Outcome<>(work.apply(from, to), null);
                    } catch (RuntimeException e) {
                        return new Outcome<>(null, e);
                    }
                }
            });
        }
        for (RecursiveTask<Outcome<R>> t : tasks.subList(1, n)) {
            t.fork();
        }
        List<Outcome<R>> outcomes = new ArrayList<>(n);
        outcomes.add(tasks.get(0).invoke());
        for (RecursiveTask<Outcome<R>> t : tasks.subList(1, n)) {
            outcomes.add(t.join());
        }
        List<R> results = new ArrayList<>(n);
        for (Outcome<R> o : outcomes) {
            if (o.failure() != null) {
                throw o.failure();
            }
            results.add(o.value());
        }
        return results;
    }

    private record Outcome<R>(R value, RuntimeException failure) {
    }
}
