package io.dpone.publication.protocol;

import java.time.Duration;
import java.time.Instant;

/** Time for the protocol: wall clock in production, a virtual clock in the simulation. */
public interface PublicationClock {
    Instant now();

    /** Waits before the next reconciliation poll. */
    void pause(Duration duration);

    PublicationClock SYSTEM = new PublicationClock() {
        @Override
        public Instant now() {
            return Instant.now();
        }

        @Override
        public void pause(Duration duration) {
            try {
                Thread.sleep(duration.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the cluster", e);
            }
        }
    };
}
