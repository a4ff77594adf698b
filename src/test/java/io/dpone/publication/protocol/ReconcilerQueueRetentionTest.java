package io.dpone.publication.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.admission.ClusterInventory;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The reconciler's "never sent" proof uses the queue retention the servers reported: a recorded exchange whose
 * queue entry is gone, with no member swapped, is sent once only while the record is younger than
 * {@code task_max_lifetime} and fewer than {@code max_tasks_in_queue} entries entered the queue since; otherwise the
 * entry may have been removed and {@code publication.ddl_queue_entry_expired} blocks without sending anything.
 */
class ReconcilerQueueRetentionTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final MemberId A = MemberId.of("c", "a", 9000);
    static final MemberId B = MemberId.of("c", "b", 9000);
    static final UUID OLD = UUID.randomUUID();
    static final UUID CANDIDATE = UUID.randomUUID();

    /** A channel whose queue lost the entry; it reports {@code newer} entries since a time, or cannot count. */
    static final class Queue implements ClusterDdl {
        final OptionalLong newer;
        final List<String> sent = new ArrayList<>();
        final List<Instant> asked = new ArrayList<>();

        Queue(OptionalLong newer) {
            this.newer = newer;
        }

        @Override
        public void submit(String queryId, ClusterStatement statement) {
            sent.add(queryId);
            throw new DdlOutcomeUnknownException("timed out");
        }

        @Override
        public Optional<DdlQueueEntry> entry(String queryId) {
            return Optional.empty();
        }

        @Override
        public OptionalLong entriesSince(Instant since) {
            asked.add(since);
            return newer;
        }
    }

    /** A member whose target is still the predecessor and whose candidate is READY: the exchange never ran. */
    static ClusterMember unswapped() {
        return member(true);
    }

    /** A member any call to fails the test. */
    static ClusterMember untouchable() {
        return member(false);
    }

    private static ClusterMember member(boolean readable) {
        return new ClusterMember() {
            @Override
            public Optional<TableState> table(String database, String table) {
                if (!readable) {
                    throw new AssertionError("no member is read");
                }
                return Optional.of(new TableState(table.equals("items") ? OLD : CANDIDATE, "MergeTree", "", 1));
            }

            @Override
            public void create(TableDefinition definition) {
                throw new AssertionError("not in reconciliation");
            }

            @Override
            public void load(String database, String table, SealedArtifact artifact, String dedupToken) {
                throw new AssertionError("not in reconciliation");
            }

            @Override
            public boolean dropExact(String database, String table, UUID expected) {
                throw new AssertionError("not in reconciliation");
            }

            @Override
            public void exchangeLocal(String database, String a, String b, String queryId) {
                throw new AssertionError("not in reconciliation");
            }

            @Override
            public void syncReplica(String database, String table) {
                throw new AssertionError("not in reconciliation");
            }
        };
    }

    static List<String> run(Queue queue, Duration recordAge, Duration lifetime, long maxTasks) {
        PublicationClock clock = new PublicationClock() {
            Instant now = NOW;

            @Override
            public Instant now() {
                return now;
            }

            @Override
            public void pause(Duration d) {
                now = now.plus(d);
            }
        };
        PublicationTarget target = new PublicationTarget(PublicationMode.EXTERNAL, "c", "db", "items", "MergeTree",
            List.of("id"), null);
        Map<MemberId, ClusterMember> members = new LinkedHashMap<>();
        members.put(A, unswapped());
        members.put(B, unswapped());
        PublicationEnvironment env = new PublicationEnvironment("run", "op-1", target,
            new ClusterInventory("c", List.of(A, B), false, "inv-x"), members, queue, null, null, null, null, null,
            clock, new PublicationSettings(lifetime, Duration.ofHours(1), Duration.ofSeconds(2), Duration.ofSeconds(1),
                maxTasks));
        FenceRecord.MemberRecord r = new FenceRecord.MemberRecord(OLD, CANDIDATE);
        FenceRecord record = FenceRecord.fenced("op-1").sealed("g-1", "ab".repeat(32), 1)
            .ready(Map.of(A, r, B, r)).ddlRecorded("dpone-op-1-g-1-exchange", NOW.minus(recordAge));
        Generation g = new Generation("g-1", "op-1", null, "items__dpone_g_1");
        try {
            PublicationReconciler.reconcile(env, record, g, false);
            return List.of();
        } catch (DponeException e) {
            return e.blockers().stream().map(b -> b.code()).toList();
        }
    }

    @Test
    void aRecordYoungerThanTheServersLifetimeWithAShortQueueIsSentOnce() {
        Queue q = new Queue(OptionalLong.of(3));
        List<String> codes = run(q, Duration.ofHours(2), Duration.ofDays(7), 1000);
        assertEquals(List.of("dpone-op-1-g-1-exchange"), q.sent, "never sent, so sent now, once");
        assertEquals(List.of("publication.ddl_pending"), codes, "then it waits for the (lost) entry");
        assertEquals(NOW.minus(Duration.ofHours(2)).minus(PublicationReconciler.CLOCK_SKEW_MARGIN), q.asked.get(0));
    }

    @Test
    void aRecordOlderThanTheServersLifetimeIsNeverResent() {
        Queue q = new Queue(OptionalLong.of(0));
        assertEquals(List.of("publication.ddl_queue_entry_expired"), run(q, Duration.ofHours(2), Duration.ofHours(1), 1000));
        assertEquals(List.of(), q.sent);
    }

    @Test
    void aQueueThatFilledUpSinceTheRecordMayHavePushedTheEntryOut() {
        Queue full = new Queue(OptionalLong.of(700));
        assertEquals(List.of("publication.ddl_queue_entry_expired"), run(full, Duration.ofHours(2), Duration.ofDays(7), 700));
        assertEquals(List.of(), full.sent);
        Queue uncountable = new Queue(OptionalLong.empty());
        assertEquals(List.of("publication.ddl_queue_entry_expired"),
            run(uncountable, Duration.ofHours(2), Duration.ofDays(7), 700), "a queue that cannot be counted proves nothing");
        assertEquals(List.of(), uncountable.sent);
        Queue unbounded = new Queue(OptionalLong.empty());
        run(unbounded, Duration.ofHours(2), Duration.ofDays(7), 0);
        assertEquals(1, unbounded.sent.size(), "without a count bound only the lifetime matters");
    }
}
