package io.dpone.publication.protocol;

import java.time.Duration;

/**
 * Timing bounds. {@code ddlQueueRetention} is the cluster's distributed-DDL queue retention (admission requires
 * it to exceed {@code maxRecoveryWindow}); a recorded DDL whose queue entry is gone is only re-sent while the
 * record is younger than the retention. {@code ddlWait} bounds one run's wait for the DDL to finish everywhere.
 */
public record PublicationSettings(Duration ddlQueueRetention, Duration maxRecoveryWindow, Duration ddlWait,
                                  Duration pollInterval) {
    public static final PublicationSettings DEFAULTS = new PublicationSettings(Duration.ofDays(7),
        Duration.ofDays(1), Duration.ofMinutes(10), Duration.ofSeconds(1));
}
