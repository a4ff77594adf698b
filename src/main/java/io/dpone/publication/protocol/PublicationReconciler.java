package io.dpone.publication.protocol;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Drives a recorded publication DDL to one outcome and proves it. Evidence per member: the target's and
 * candidate's UUIDs against the recorded predecessor and candidate UUIDs, plus the queue entry's status.
 * <ul>
 *   <li>all members swapped and the entry finished everywhere (or gone): converged;</li>
 *   <li>no entry, no member swapped, record younger than the servers' {@code task_max_lifetime} and fewer than
 *       {@code max_tasks_in_queue} newer entries in the queue: the DDL was never sent, so it is sent now, exactly
 *       once;</li>
 *   <li>entry finished on a member whose tables are not swapped: the host executed the exchange twice; the
 *       member is repaired with one member-local exchange, decided again from UUIDs;</li>
 *   <li>anything else waits (bounded) or blocks with a typed code; nothing is re-sent blindly.</li>
 * </ul>
 */
final class PublicationReconciler {
    private static final int MAX_REPAIRS_PER_MEMBER = 2;
    /** How far the servers' clocks (queue entry creation times) may run behind this process's clock. */
    static final java.time.Duration CLOCK_SKEW_MARGIN = java.time.Duration.ofHours(1);

    private PublicationReconciler() {
    }

    private enum Side { SWAPPED, UNSWAPPED }

    static void reconcile(PublicationEnvironment env, FenceRecord record, Generation g, boolean justRecorded) {
        PublicationTarget t = env.target();
        String queryId = record.ddlQueryId();
        boolean sent = false;
        if (justRecorded) {
            send(env, queryId, t, g);
            sent = true;
        }
        Map<MemberId, Integer> repairs = new HashMap<>();
        Instant deadline = env.clock().now().plus(env.settings().ddlWait());
        while (true) {
            Map<MemberId, Side> sides = sides(env, record, g);
            Optional<DdlQueueEntry> entry = env.ddl().entry(queryId);
            boolean allSwapped = sides.values().stream().allMatch(s -> s == Side.SWAPPED);
            boolean noneSwapped = sides.values().stream().allMatch(s -> s == Side.UNSWAPPED);
            if (allSwapped && (entry.isEmpty() || entry.get().finishedEverywhere(sides.keySet()))) {
                return;
            }
            if (entry.isEmpty()) {
                boolean withinRetention = env.clock().now()
                    .isBefore(record.ddlRecordedAt().plus(env.settings().ddlQueueRetention()));
                if (noneSwapped && !sent && withinRetention && notPushedOut(env, record)) {
                    send(env, queryId, t, g);
                    sent = true;
                    continue;
                }
                if (!sent) {
                    throw new DponeException(BlockerCode.PUBLICATION_DDL_QUEUE_ENTRY_EXPIRED, "cluster",
                        "the publication DDL's queue entry is gone and the members do not prove one outcome");
                }
            } else {
                for (Map.Entry<MemberId, Side> s : sides.entrySet()) {
                    DdlQueueEntry.Status status = entry.get().members().get(s.getKey());
                    if (status == DdlQueueEntry.Status.FAILED) {
                        throw new DponeException(BlockerCode.PUBLICATION_DDL_FAILED, s.getKey().value(),
                            "the member reports the publication DDL failed");
                    }
                    if (status == DdlQueueEntry.Status.FINISHED && s.getValue() == Side.UNSWAPPED) {
                        repairDoubleExchange(env, s.getKey(), queryId, g, repairs);
                    }
                }
            }
            if (!env.clock().now().isBefore(deadline)) {
                throw new DponeException(BlockerCode.PUBLICATION_DDL_PENDING, "cluster",
                    "the publication DDL has not finished on every member yet");
            }
            env.clock().pause(env.settings().pollInterval());
        }
    }

    /**
     * True when the queue cannot have removed the entry by count: it has no count bound, or it holds fewer than
     * {@code max_tasks_in_queue} entries created since the DDL was recorded (less a clock-skew margin, which only
     * counts more entries). A channel that cannot count proves nothing.
     */
    static boolean notPushedOut(PublicationEnvironment env, FenceRecord record) {
        long max = env.settings().ddlQueueMaxTasks();
        if (max <= 0) {
            return true;
        }
        java.util.OptionalLong newer = env.ddl().entriesSince(record.ddlRecordedAt().minus(CLOCK_SKEW_MARGIN));
        return newer.isPresent() && newer.getAsLong() < max;
    }

    private static void send(PublicationEnvironment env, String queryId, PublicationTarget t, Generation g) {
        try {
            env.ddl().submit(queryId, new ClusterStatement.Exchange(t.database(), t.table(), g.candidate()));
        } catch (DdlOutcomeUnknownException e) {
            // the outcome is decided by the queue entry and the members' UUIDs below, never by re-sending
        }
    }

    private static void repairDoubleExchange(PublicationEnvironment env, MemberId id, String queryId, Generation g,
                                             Map<MemberId, Integer> repairs) {
        int n = repairs.merge(id, 1, Integer::sum);
        if (n > MAX_REPAIRS_PER_MEMBER) {
            throw new DponeException(BlockerCode.PUBLICATION_RECONCILIATION_FAILED, id.value(),
                "the member keeps swapping the tables back");
        }
        PublicationTarget t = env.target();
        env.member(id).exchangeLocal(t.database(), t.table(), g.candidate(), queryId + "-repair-" + id.value() + "-" + n);
    }

    private static Map<MemberId, Side> sides(PublicationEnvironment env, FenceRecord record, Generation g) {
        PublicationTarget t = env.target();
        Map<MemberId, Side> sides = new java.util.LinkedHashMap<>();
        for (Map.Entry<MemberId, ClusterMember> e : env.members().entrySet()) {
            FenceRecord.MemberRecord r = record.members().get(e.getKey());
            Optional<TableState> target = e.getValue().table(t.database(), t.table());
            Optional<TableState> cand = e.getValue().table(t.database(), g.candidate());
            if (r == null || target.isEmpty() || cand.isEmpty()) {
                throw new DponeException(BlockerCode.PUBLICATION_RECONCILIATION_FAILED, e.getKey().value(),
                    "the member lacks the target or the candidate during publication");
            }
            if (target.get().uuid().equals(r.candidateUuid()) && cand.get().uuid().equals(r.predecessorUuid())) {
                sides.put(e.getKey(), Side.SWAPPED);
            } else if (target.get().uuid().equals(r.predecessorUuid()) && cand.get().uuid().equals(r.candidateUuid())) {
                sides.put(e.getKey(), Side.UNSWAPPED);
            } else {
                throw new DponeException(BlockerCode.PUBLICATION_RECONCILIATION_FAILED, e.getKey().value(),
                    "the member's table UUIDs match neither side of the recorded exchange");
            }
        }
        return sides;
    }
}
