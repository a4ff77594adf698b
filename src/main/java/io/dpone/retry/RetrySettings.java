package io.dpone.retry;

import java.time.Duration;

/**
 * A run's retry budget and backoff ({@code retry:} in the manifest, {@code retry:} in the serve config for the runs
 * serve starts; docs/operations.md, "Retries"). {@code maxRetries} counts retried attempts over the whole run, every
 * operation kind together; {@code maxTime} bounds the time the run spends between an operation's first transient
 * failure and its end, summed over every retried operation. Backoff doubles from {@code initialBackoff} up to
 * {@code maxBackoff}, each delay drawn with {@value #JITTER} relative jitter. {@code maxRetries = 0} turns retries
 * off (a transient fault fails the run at once, as before issue 35).
 */
public record RetrySettings(int maxRetries, Duration maxTime, Duration initialBackoff, Duration maxBackoff) {
    /** The relative jitter of every delay: {@code d * (1 ± 0.25)}. */
    public static final double JITTER = 0.25;

    /**
     * 20 retries within 5 minutes per run, backoff 250 ms doubling to 15 s: enough to ride out a reset on a handful
     * of chunks or a proxy restart of a few seconds, short enough that a server that is down fails the run within
     * minutes instead of stalling it (the unbounded retries of the Altinity reference).
     */
    public static final RetrySettings DEFAULT = new RetrySettings(20, Duration.ofMinutes(5), Duration.ofMillis(250),
        Duration.ofSeconds(15));

    /** No retries. */
    public static final RetrySettings NONE = new RetrySettings(0, Duration.ZERO, Duration.ofMillis(250),
        Duration.ofSeconds(15));

    public RetrySettings {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("max_retries must be >= 0");
        }
        if (maxTime.isNegative() || initialBackoff.isNegative() || initialBackoff.isZero()
                || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("max_time >= 0 and 0 < initial_backoff <= max_backoff");
        }
    }

    /** These settings with the fields {@code other} states (null: keep this one's). */
    public RetrySettings with(Integer retries, Duration time, Duration initial, Duration max) {
        return new RetrySettings(retries == null ? maxRetries : retries, time == null ? maxTime : time,
            initial == null ? initialBackoff : initial, max == null ? maxBackoff : max);
    }
}
