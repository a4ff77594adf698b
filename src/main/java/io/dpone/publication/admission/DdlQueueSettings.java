package io.dpone.publication.admission;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.publication.MemberId;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * How long the cluster's distributed-DDL queue keeps an entry, as the servers say: {@code
 * distributed_ddl.task_max_lifetime} (seconds an entry lives) and {@code distributed_ddl.max_tasks_in_queue}
 * (beyond it the oldest entries are removed early), read from {@code system.server_settings} on every member.
 * Every member's DDL worker cleans the shared queue with its own values, so the cluster keeps an entry no longer
 * than the strictest member allows ({@link #strictest}). A server that does not list a setting (older than the
 * release that exposed {@code distributed_ddl.*} there) runs with ClickHouse's default, used here and marked
 * {@code listed = false}; a server that refuses the read is an admission blocker, never a silent default.
 */
public record DdlQueueSettings(long taskMaxLifetimeSeconds, long maxTasksInQueue, boolean listed) {
    /** ClickHouse's default {@code distributed_ddl.task_max_lifetime}: one week. */
    public static final long DEFAULT_TASK_MAX_LIFETIME_SECONDS = 7 * 24 * 3600;
    /** ClickHouse's default {@code distributed_ddl.max_tasks_in_queue}. */
    public static final long DEFAULT_MAX_TASKS_IN_QUEUE = 1000;
    public static final DdlQueueSettings DEFAULTS =
        new DdlQueueSettings(DEFAULT_TASK_MAX_LIFETIME_SECONDS, DEFAULT_MAX_TASKS_IN_QUEUE, false);

    static final String LIFETIME = "distributed_ddl.task_max_lifetime";
    static final String MAX_TASKS = "distributed_ddl.max_tasks_in_queue";

    public Duration taskMaxLifetime() {
        return Duration.ofSeconds(taskMaxLifetimeSeconds);
    }

    /** Reads one member's settings; failures are typed admission blockers (see {@link AdmissionFailures}). */
    public static DdlQueueSettings read(MemberId member, ClickHouseEndpoint endpoint) {
        return AdmissionFailures.query(member.toString(), "system.server_settings",
            () -> fromRows(endpoint.operations().serverSettings(List.of(LIFETIME, MAX_TASKS)).entrySet().stream()
                .map(e -> List.of(e.getKey(), e.getValue())).toList()));
    }

    /** Rows of (name, value); a setting not listed keeps ClickHouse's default. */
    static DdlQueueSettings fromRows(List<List<String>> rows) {
        long lifetime = DEFAULT_TASK_MAX_LIFETIME_SECONDS;
        long maxTasks = DEFAULT_MAX_TASKS_IN_QUEUE;
        int listed = 0;
        for (List<String> r : rows) {
            if (LIFETIME.equals(r.get(0))) {
                lifetime = Long.parseLong(r.get(1).strip());
                listed++;
            } else if (MAX_TASKS.equals(r.get(0))) {
                maxTasks = Long.parseLong(r.get(1).strip());
                listed++;
            }
        }
        return new DdlQueueSettings(lifetime, maxTasks, listed == 2);
    }

    /** The cluster's effective retention: the shortest lifetime and the smallest queue bound of any member. */
    public static DdlQueueSettings strictest(Collection<DdlQueueSettings> members) {
        if (members.isEmpty()) {
            return DEFAULTS;
        }
        return new DdlQueueSettings(
            members.stream().mapToLong(DdlQueueSettings::taskMaxLifetimeSeconds).min().orElseThrow(),
            members.stream().mapToLong(DdlQueueSettings::maxTasksInQueue).min().orElseThrow(),
            members.stream().allMatch(DdlQueueSettings::listed));
    }
}
