package io.dpone.retry;

import java.util.Map;

/**
 * What one run retried: the retried attempts in all, the time spent between first transient failures and the ends
 * of those operations, the retries per {@link OperationKind} ({@code chunk_insert}, {@code metadata_query}, ...),
 * whether the budget ran out, and the budget itself. The run report's {@code retries} block.
 */
public record RetryTally(long retries, long spentMillis, Map<String, Long> byKind, boolean budgetExhausted,
                         int maxRetries, long maxTimeMillis) {
    public RetryTally {
        byKind = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(byKind));
    }

    /** A run that retried nothing under {@code settings}. */
    public static RetryTally none(RetrySettings settings) {
        return new RetryTally(0, 0, Map.of(), false, settings.maxRetries(), settings.maxTime().toMillis());
    }
}
