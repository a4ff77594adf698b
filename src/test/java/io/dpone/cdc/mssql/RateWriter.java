package io.dpone.cdc.mssql;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * For the freshness benches (bench/CdcFreshnessBench.java, bench/CdcServeFreshnessBench.java): inserts rows
 * {@code 1..total} into the CDC emulation's {@code dbo.orders} at {@code rate} rows per second, one transaction every
 * 10 ms, and records when each row's transaction committed ({@link System#nanoTime()}).
 */
public final class RateWriter implements Runnable {
    private final H2CdcFixture fx;
    private final int rate;
    private final int total;
    private final long[] committedAt;
    private final AtomicInteger written = new AtomicInteger();
    private final AtomicBoolean stop = new AtomicBoolean();

    public RateWriter(H2CdcFixture fx, int rate, int total) {
        this.fx = fx;
        this.rate = rate;
        this.total = total;
        this.committedAt = new long[total + 1];
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        int n = 0;
        try {
            for (int slot = 1; n < total && !stop.get(); slot++) {
                int due = (int) Math.min(total, (long) rate * slot / 100);
                if (due > n) {
                    H2CdcFixture.Txn txn = fx.txn();
                    for (int id = n + 1; id <= due; id++) {
                        txn.insert(H2CdcFixture.row(id, "new", id + ".00", "w" + id, null));
                    }
                    txn.commit();
                    long now = System.nanoTime();
                    for (int id = n + 1; id <= due; id++) {
                        committedAt[id] = now;
                    }
                    n = due;
                    written.set(n);
                }
                long sleep = start + slot * 10_000_000L - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000)); // the writer's steady rate
                }
            }
        } catch (Exception e) {
            e.printStackTrace();
        }
    }

    public void stop() {
        stop.set(true);
    }

    public int written() {
        return written.get();
    }

    /** When row {@code id}'s transaction committed; 0 when it was not written. */
    public long committedAt(int id) {
        return committedAt[id];
    }

    /**
     * The times from commit to visibility in ms, all of them and those of the last quarter of the rows, for rows
     * both written and seen ({@code visibleAt[id]} in {@link System#nanoTime()}, 0 when not seen).
     */
    public List<List<Long>> visibleAfterMs(long[] visibleAt) {
        List<Long> all = new ArrayList<>();
        List<Long> lastQuarter = new ArrayList<>();
        for (int id = 1; id <= total; id++) {
            if (visibleAt[id] > 0 && committedAt[id] > 0) {
                long ms = (visibleAt[id] - committedAt[id]) / 1_000_000;
                all.add(ms);
                if (id > total * 3 / 4) {
                    lastQuarter.add(ms);
                }
            }
        }
        return List.of(all, lastQuarter);
    }

    /** The {@code p}-th percentile (nearest rank) of {@code values}, -1 when empty. */
    public static long pct(List<Long> values, int p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int i = (int) Math.min(sorted.size() - 1, Math.max(0, Math.ceil(p / 100.0 * sorted.size()) - 1));
        return sorted.get(i);
    }
}
