package io.dpone.publication.protocol;

import java.time.Duration;

/**
 * Timing bounds. {@code ddlQueueRetention} and {@code ddlQueueMaxTasks} are the cluster's distributed-DDL queue
 * retention as its servers report it at admission ({@code distributed_ddl.task_max_lifetime} and
 * {@code distributed_ddl.max_tasks_in_queue}, the strictest member's; admission requires the lifetime to exceed
 * {@code maxRecoveryWindow}). A recorded DDL whose queue entry is gone is only re-sent while the record is younger
 * than the lifetime and the queue provably has not pushed the entry out by count ({@code ddlQueueMaxTasks} &le; 0:
 * the queue has no count bound). {@code ddlWait} bounds one run's wait for the DDL to finish everywhere.
 */
public record PublicationSettings(Duration ddlQueueRetention, Duration maxRecoveryWindow, Duration ddlWait,
                                  Duration pollInterval, long ddlQueueMaxTasks) {
    /** ClickHouse's default queue retention (one week, 1000 entries) and dpone's default bounds. */
    public static final PublicationSettings DEFAULTS = new PublicationSettings(Duration.ofDays(7),
        Duration.ofDays(1), Duration.ofMinutes(10), Duration.ofSeconds(1), 1000);

    /** Bounds for a queue without a count bound (the simulation's). */
    public PublicationSettings(Duration ddlQueueRetention, Duration maxRecoveryWindow, Duration ddlWait,
                               Duration pollInterval) {
        this(ddlQueueRetention, maxRecoveryWindow, ddlWait, pollInterval, 0);
    }
}
