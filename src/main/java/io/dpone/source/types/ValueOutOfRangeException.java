package io.dpone.source.types;

/** A source value that the mapped ClickHouse type cannot hold exactly. Carries no value, only the reason. */
public final class ValueOutOfRangeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ValueOutOfRangeException(String reason) {
        super(reason);
    }
}
