package io.dpone.manifest;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of dpone's configuration ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}): the serve
 * configuration's schedules and timeouts, and {@code DPONE_PHASE_TIMEOUT}.
 */
public final class ShortDuration {
    private static final Pattern SYNTAX = Pattern.compile("^(\\d{1,9})(ms|s|m|h)$");

    private ShortDuration() {
    }

    /** The duration {@code text} spells, or empty when it is not one. */
    public static Optional<Duration> parse(String text) {
        Matcher m = text == null ? null : SYNTAX.matcher(text);
        if (m == null || !m.matches()) {
            return Optional.empty();
        }
        long v = Long.parseLong(m.group(1));
        return Optional.of(switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(v);
            case "s" -> Duration.ofSeconds(v);
            case "m" -> Duration.ofMinutes(v);
            default -> Duration.ofHours(v);
        });
    }
}
