package io.dpone.manifest;

import java.util.Locale;

/**
 * What a run does with a source value ClickHouse cannot hold, or a source type it cannot hold without a decision
 * ({@code source.value_policy}, docs/manifest.md). Whatever a policy did is evidence: the run's {@code value_policy}
 * gate names each column and counts the values it changed.
 */
public enum ValuePolicy {
    /** The run stops with {@code source.value_out_of_range} naming the column (the default). */
    REFUSE,
    /** The value becomes the nearest value the ClickHouse type holds (a date before 1900-01-01 becomes that day). */
    CLAMP,
    /** The value becomes NULL; only for a nullable column. */
    NULL,
    /** A {@code sql_variant} column moves as its text plus a {@code <column>__type} column naming its base type. */
    AS_TEXT;

    /** The manifest's spelling ({@code refuse}, {@code clamp}, {@code null}, {@code as_text}). */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy spelled {@code text} in any case; empty for an unknown spelling. */
    public static java.util.Optional<ValuePolicy> parse(String text) {
        for (ValuePolicy p : values()) {
            if (p.text().equalsIgnoreCase(text)) {
                return java.util.Optional.of(p);
            }
        }
        return java.util.Optional.empty();
    }

    /** The policy spelled {@code text} (schema-validated before binding). */
    public static ValuePolicy of(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT));
    }
}
