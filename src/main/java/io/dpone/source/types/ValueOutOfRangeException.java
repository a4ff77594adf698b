package io.dpone.source.types;

/**
 * A source value that the mapped ClickHouse type cannot hold exactly. Carries no source value in its message, only
 * the reason; {@link #nearest()} is the nearest value the type can hold (for a value outside the type's range), or
 * {@code null} when no such value exists (a value of the wrong kind, more fractional digits than the precision). A
 * declared {@code clamp} policy uses it; nothing else does.
 */
public final class ValueOutOfRangeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Object nearest;

    public ValueOutOfRangeException(String reason) {
        this(reason, null);
    }

    public ValueOutOfRangeException(String reason, Object nearest) {
        super(reason, null, false, false); // thrown per value under a policy: no stack trace to fill
        this.nearest = nearest;
    }

    /** The nearest representable canonical value, or {@code null} when the value cannot be clamped. */
    public Object nearest() {
        return nearest;
    }
}
