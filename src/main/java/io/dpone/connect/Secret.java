package io.dpone.connect;

/** A credential value. It prints as a mask and registers itself with the redaction layer on creation. */
public final class Secret {
    private final String value;

    private Secret(String value) {
        this.value = value;
    }

    public static Secret of(String value) {
        Redactor.global().registerSecret(value);
        return new Secret(value);
    }

    /** The raw value, for handing to a driver only. */
    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return "***";
    }
}
