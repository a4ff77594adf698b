package io.dpone.error;

import java.util.Map;

/**
 * One reason a step cannot proceed. {@code code} is a stable dotted code (see {@code docs/blockers.md});
 * {@code subject} names where it applies (a manifest path such as {@code sink.table.name}, a route id, a column).
 * Messages and details pass through the redaction layer before they reach any output.
 */
public record Blocker(String code, String subject, String message, Map<String, Object> details) {
    public Blocker {
        details = details == null ? Map.of() : Map.copyOf(details);
    }

    public static Blocker of(BlockerCode code, String subject, String message) {
        return new Blocker(code.code(), subject, message, Map.of());
    }

    public static Blocker of(BlockerCode code, String subject, String message, Map<String, Object> details) {
        return new Blocker(code.code(), subject, message, details);
    }
}
