package io.dpone.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.retry.RetrySettings;
import java.time.Duration;

/**
 * A {@code retry:} block, in a manifest or in the serve config (same shape, same schema definition):
 * {@code max_retries}, {@code max_time}, {@code initial_backoff}, {@code max_backoff}, each over
 * {@link RetrySettings#DEFAULT}.
 */
public final class RetryBlock {
    private RetryBlock() {
    }

    /**
     * The settings {@code r} states over the defaults; null when there is no block. The schema has checked its
     * shape; {@link RetrySettings} throws {@link IllegalArgumentException} when the backoff order is wrong.
     */
    public static RetrySettings parse(JsonNode r) {
        if (r == null || r.isNull() || r.isMissingNode()) {
            return null;
        }
        return RetrySettings.DEFAULT.with(r.hasNonNull("max_retries") ? r.get("max_retries").asInt() : null,
            duration(r, "max_time"), duration(r, "initial_backoff"), duration(r, "max_backoff"));
    }

    private static Duration duration(JsonNode r, String key) {
        return r.hasNonNull(key) ? ShortDuration.parse(r.get(key).asText()).orElse(null) : null;
    }
}
