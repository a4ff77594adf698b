package io.dpone.route;

/** The set-once rule of a run's state ({@link TransferRun}, {@link RunResources}): fixed once, read after. */
final class Once {
    private Once() {
    }

    /** {@code next}, when nothing was set yet; a second set is a programming error. */
    static <T> T set(T current, T next, String what) {
        if (current != null) {
            throw new IllegalStateException("the run's " + what + " is already set");
        }
        return next;
    }

    /** {@code value}, when it was set; reading it before is a programming error. */
    static <T> T get(T value, String what) {
        if (value == null) {
            throw new IllegalStateException("the run's " + what + " is not set yet");
        }
        return value;
    }
}
