package io.dpone.route;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run has moved so far and where its time went, updated by the route's steps through methods only. Safe to
 * read from another thread while the run goes on (progress, JMX): every method holds this object's lock.
 */
public final class RunCounters {
    private long rows;
    private long bytes;
    private int chunks;
    private final Map<String, Long> stepMillis = new LinkedHashMap<>();

    /** A chunk of {@code rows} rows and {@code bytes} encoded bytes landed in the staging table. */
    public synchronized void chunkLoaded(long rows, long bytes) {
        this.rows += rows;
        this.bytes += bytes;
        chunks++;
    }

    /** A chunk of {@code bytes} encoded bytes reached object storage (its rows count when ClickHouse pulls them). */
    public synchronized void chunkUploaded(long bytes) {
        this.bytes += bytes;
        chunks++;
    }

    /** ClickHouse pulled {@code rows} more rows into the staging table. */
    public synchronized void rowsPulled(long rows) {
        this.rows += rows;
    }

    /** Adds the time since {@code startedNanos} ({@link System#nanoTime()}) to {@code step}. */
    public synchronized void addStep(String step, long startedNanos) {
        stepMillis.merge(step, (System.nanoTime() - startedNanos) / 1_000_000, Long::sum);
    }

    /** Adds {@code millis} to {@code step} (time measured elsewhere, e.g. on a worker thread). */
    public synchronized void addMillis(String step, long millis) {
        stepMillis.merge(step, millis, Long::sum);
    }

    /**
     * The first chunk reached the route's load (or upload) step, {@code millis} after the run started: kept once, as
     * step {@code first_chunk} (the time before the first row lands, what overlapping the prepare steps shortens).
     */
    public synchronized void firstChunk(long millis) {
        stepMillis.putIfAbsent("first_chunk", millis);
    }

    /** Records {@code millis} as the whole time of {@code step} (a step timed elsewhere, e.g. on a worker thread). */
    public synchronized void setStep(String step, long millis) {
        stepMillis.put(step, millis);
    }

    public synchronized long rows() {
        return rows;
    }

    public synchronized long bytes() {
        return bytes;
    }

    public synchronized int chunks() {
        return chunks;
    }

    /** A copy of the step times in the order the steps first ran. */
    public synchronized Map<String, Long> stepMillis() {
        return new LinkedHashMap<>(stepMillis);
    }
}
