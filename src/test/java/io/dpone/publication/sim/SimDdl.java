package io.dpone.publication.sim;

import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.ClusterDdl;
import io.dpone.publication.protocol.ClusterStatement;
import io.dpone.publication.protocol.DdlOutcomeUnknownException;
import io.dpone.publication.protocol.DdlQueueEntry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The distributed-DDL queue: a submitted statement becomes an entry every member's worker executes on its own
 * schedule (some at once, the rest whenever time passes), unreachable members later. Faults: a submission that
 * times out after its entry exists, a host that executes an entry twice, entries that expire once finished.
 */
final class SimDdl implements ClusterDdl {
    private final SimWorld world;

    SimDdl(SimWorld world) {
        this.world = world;
    }

    /** One queue entry. Creates carry the UUID every replica gets (ON CLUSTER create in an Atomic database). */
    static final class Entry {
        final ClusterStatement statement;
        final Map<MemberId, DdlQueueEntry.Status> status = new LinkedHashMap<>();
        final UUID uuid;
        final SimTable.Log log;

        Entry(ClusterStatement statement, UUID uuid, SimTable.Log log) {
            this.statement = statement;
            this.uuid = uuid;
            this.log = log;
        }
    }

    @Override
    public void submit(String queryId, ClusterStatement statement) {
        world.faults.sideEffect("ddl submit " + (statement instanceof ClusterStatement.Exchange ? "exchange" : "create"));
        if (world.ddlQueue.containsKey(queryId)) {
            world.violations.add("a DDL query id was submitted twice: " + queryId);
            return;
        }
        boolean replicated = statement instanceof ClusterStatement.Create c && c.definition().engine().startsWith("Replicated");
        Entry e = new Entry(statement, world.newUuid(), replicated ? new SimTable.Log() : null);
        world.memberIds.forEach(m -> e.status.put(m, DdlQueueEntry.Status.QUEUED));
        world.ddlQueue.put(queryId, e);
        for (MemberId m : world.memberIds) {
            if (world.random.nextBoolean()) {
                execute(world, queryId, e, m);
            }
        }
        world.faults.sideEffect("after ddl submit " + (statement instanceof ClusterStatement.Exchange ? "exchange" : "create"));
        if (world.faults.ddlTimeout && statement instanceof ClusterStatement.Exchange) {
            world.faults.ddlTimeout = false;
            world.faults.fired.add("ddl_timeout");
            throw new DdlOutcomeUnknownException("distributed DDL timed out");
        }
    }

    @Override
    public Optional<DdlQueueEntry> entry(String queryId) {
        Entry e = world.ddlQueue.get(queryId);
        return e == null ? Optional.empty() : Optional.of(new DdlQueueEntry(queryId, e.status));
    }

    /** Every reachable member's worker runs its queued entries. */
    static void work(SimWorld world) {
        for (Map.Entry<String, Entry> q : new LinkedHashMap<>(world.ddlQueue).entrySet()) {
            for (MemberId m : world.memberIds) {
                execute(world, q.getKey(), q.getValue(), m);
            }
            if (world.faults.expireFinishedEntries
                && q.getValue().status.values().stream().allMatch(s -> s == DdlQueueEntry.Status.FINISHED)) {
                world.ddlQueue.remove(q.getKey());
                world.faults.fired.add("expire_entries");
            }
        }
    }

    private static void execute(SimWorld world, String queryId, Entry e, MemberId m) {
        if (e.status.get(m) != DdlQueueEntry.Status.QUEUED || !world.reachable(m)) {
            return;
        }
        Map<String, SimTable> tables = world.tables.get(m);
        try {
            if (e.statement instanceof ClusterStatement.Exchange x) {
                SimMember.exchange(tables, x.database(), x.a(), x.b());
                if (m.equals(world.faults.executeTwice)) {
                    world.faults.executeTwice = null;
                    world.faults.fired.add("execute_twice");
                    SimMember.exchange(tables, x.database(), x.a(), x.b());
                }
            } else if (e.statement instanceof ClusterStatement.Create c) {
                SimMember.createOn(world, tables, c.definition(), e.uuid, e.log);
            }
            e.status.put(m, DdlQueueEntry.Status.FINISHED);
        } catch (IllegalStateException ex) {
            e.status.put(m, DdlQueueEntry.Status.FAILED);
        }
    }
}
