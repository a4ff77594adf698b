package io.dpone.publication.protocol;

import java.util.function.Supplier;

/**
 * Issue 17's mutation of {@link PredecessorCleanup}: the cleanup drops by the UUID observed under the candidate's
 * name now, not the recorded predecessor UUID. Production has no seam for it: while {@link #dropByObservedUuid}
 * runs, the simulation's members ({@code SimMember.dropExact}) replace the UUID of every drop that
 * {@code PredecessorCleanup} asks for with the one they hold under that name ({@link #mutates()}). Test code only.
 */
public final class CleanupMutant {
    private static final String CLEANUP = PredecessorCleanup.class.getName();
    private static volatile boolean active;

    private CleanupMutant() {
    }

    public static synchronized <T> T dropByObservedUuid(Supplier<T> body) {
        active = true;
        try {
            return body.get();
        } finally {
            active = false;
        }
    }

    /** True inside {@link #dropByObservedUuid} for a drop the predecessor cleanup asked for. */
    public static boolean mutates() {
        return active && StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getClassName()
            .equals(CLEANUP)));
    }
}
