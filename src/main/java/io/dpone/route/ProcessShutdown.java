package io.dpone.route;

/**
 * Whether the JVM is shutting down (SIGTERM, SIGINT, {@code System.exit}). The JDK has no query for it; registering
 * a hook is refused with {@link IllegalStateException} once shutdown has begun, which is the documented signal
 * ({@link Runtime#addShutdownHook}). A run that fails then was stopped, not broken: a library's own shutdown hook
 * (H2 closing its database, the engine's) can fail it before Camel's context is marked as stopping.
 */
public final class ProcessShutdown {
    private static final Thread PROBE = new Thread(() -> { }, "dpone-shutdown-probe");

    private ProcessShutdown() {
    }

    /** Whether the JVM's shutdown has begun. */
    public static boolean inProgress() {
        try {
            Runtime.getRuntime().addShutdownHook(PROBE);
        } catch (IllegalStateException e) {
            return true;
        } catch (IllegalArgumentException e) {
            return false; // registered by a concurrent probe: not shutting down (else it would have been refused)
        }
        Runtime.getRuntime().removeShutdownHook(PROBE);
        return false;
    }
}
