package io.dpone.retry;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One run's retry budget: tries an idempotent operation again after a transient fault ({@link TransientFaults}),
 * with exponential backoff and jitter (Failsafe's {@link RetryPolicy}), while the run's budget lasts: at most
 * {@link RetrySettings#maxRetries()} retried attempts and {@link RetrySettings#maxTime()} spent retrying, over every
 * operation of the run and every thread of it together. Counts retries per {@link OperationKind} for the report and
 * the metrics. A permanent failure passes through at once; a transient one that outlives the budget fails typed: the
 * last cause's own blockers followed by {@code connection.retry_budget_exhausted}, and the run stays resumable.
 *
 * <p>Callers wrap idempotent operations only (see {@link OperationKind}); never an EXCHANGE, the fence, a DDL or a
 * CDC offset commit.
 */
public final class RetryBudget {
    private final RetrySettings settings;
    private final Map<OperationKind, Long> retries = new EnumMap<>(OperationKind.class);
    private long retried;
    private long spentNanos;
    private boolean exhausted;

    public RetryBudget(RetrySettings settings) {
        this.settings = settings;
    }

    /** A budget that retries nothing (tests, and callers with no run). */
    public static RetryBudget none() {
        return new RetryBudget(RetrySettings.NONE);
    }

    public RetrySettings settings() {
        return settings;
    }

    /** Runs {@code operation}, again after each transient failure while the budget lasts. */
    public <T> T call(OperationKind kind, Supplier<T> operation) {
        long[] firstFailure = {0};
        boolean[] outOfBudget = {false};
        RetryPolicy<T> policy = RetryPolicy.<T>builder()
            .handleIf(TransientFaults::isTransient)
            .abortIf((T result, Throwable failure) -> failure != null && TransientFaults.isTransient(failure)
                && (outOfBudget[0] = !take(kind, firstFailure)))
            .withBackoff(settings.initialBackoff(), settings.maxBackoff())
            .withJitter(RetrySettings.JITTER)
            .withMaxRetries(-1)
            .build();
        try {
            return Failsafe.with(policy).get(operation::get);
        } catch (FailsafeException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        } catch (RuntimeException e) {
            if (outOfBudget[0] && settings.maxRetries() > 0) {
                throw exhausted(kind, e);
            }
            throw e;
        } finally {
            if (firstFailure[0] != 0) {
                synchronized (this) {
                    spentNanos += System.nanoTime() - firstFailure[0];
                }
            }
        }
    }

    /** Runs {@code operation} as {@link #call}, for operations without a result. */
    public void run(OperationKind kind, Runnable operation) {
        call(kind, () -> {
            operation.run();
            return null;
        });
    }

    /**
     * Recovers from {@code failure} of an operation that ran outside the budget (a row fetch on the hot path, where
     * a policy per row would cost too much): rethrows it when it is permanent, else takes a retry from the budget
     * (failing typed when it is spent), waits the first backoff and runs {@code retry} under {@link #call}.
     */
    public <T> T recover(OperationKind kind, RuntimeException failure, Supplier<T> retry) {
        if (!TransientFaults.isTransient(failure)) {
            throw failure;
        }
        long[] firstFailure = {0};
        boolean allowed = take(kind, firstFailure);
        if (!allowed) {
            if (settings.maxRetries() > 0) {
                throw exhausted(kind, failure);
            }
            throw failure;
        }
        try {
            Thread.sleep(jittered(settings.initialBackoff().toMillis())); // the backoff before the first retry
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure;
        } finally {
            synchronized (this) {
                spentNanos += System.nanoTime() - firstFailure[0];
            }
        }
        return call(kind, retry);
    }

    private static long jittered(long millis) {
        double f = 1 + RetrySettings.JITTER * (2 * java.util.concurrent.ThreadLocalRandom.current().nextDouble() - 1);
        return Math.max(1, Math.round(millis * f));
    }

    /** Takes one retry from the budget if it has one left (count and time); false once spent. */
    private synchronized boolean take(OperationKind kind, long[] firstFailure) {
        long now = System.nanoTime();
        if (firstFailure[0] == 0) {
            firstFailure[0] = now;
        }
        long spent = spentNanos + (now - firstFailure[0]);
        if (exhausted || retried >= settings.maxRetries() || spent >= settings.maxTime().toNanos()) {
            exhausted = settings.maxRetries() > 0;
            return false;
        }
        retried++;
        retries.merge(kind, 1L, Long::sum);
        return true;
    }

    private DponeException exhausted(OperationKind kind, RuntimeException last) {
        List<Blocker> blockers = new ArrayList<>();
        if (last instanceof DponeException typed) {
            blockers.addAll(typed.blockers());
        }
        RetryTally t = tally();
        blockers.add(Blocker.of(BlockerCode.RETRY_BUDGET_EXHAUSTED, kind.key(), "a " + kind.key().replace('_', ' ')
            + " still failed transiently after the run's retry budget was spent (" + t.retries() + " of "
            + settings.maxRetries() + " retries, " + t.spentMillis() + " of " + settings.maxTime().toMillis()
            + " ms); the run is resumable with the same run id"));
        DponeException typed = new DponeException(blockers);
        if (!(last instanceof DponeException)) {
            typed.addSuppressed(last); // not in any message; kept for a debugger
        }
        return typed;
    }

    /** What the run has retried so far. */
    public synchronized RetryTally tally() {
        Map<String, Long> byKind = new LinkedHashMap<>();
        retries.forEach((k, v) -> byKind.put(k.key(), v));
        return new RetryTally(retried, spentNanos / 1_000_000, byKind, exhausted, settings.maxRetries(),
            settings.maxTime().toMillis());
    }
}
