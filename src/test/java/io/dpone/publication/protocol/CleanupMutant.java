package io.dpone.publication.protocol;

import java.util.function.Supplier;

/**
 * Switches on issue 17's mutation of {@link PredecessorCleanup} (drop by the UUID observed now, not the recorded
 * one) for the duration of one call, through the cleanup's package-private test seam. Test code only.
 */
public final class CleanupMutant {
    private CleanupMutant() {
    }

    public static synchronized <T> T dropByObservedUuid(Supplier<T> body) {
        PredecessorCleanup.mutantDropsObservedUuid = true;
        try {
            return body.get();
        } finally {
            PredecessorCleanup.mutantDropsObservedUuid = false;
        }
    }
}
