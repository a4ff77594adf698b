package io.dpone.publication.sim;

import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import io.dpone.publication.protocol.ClusterMember;
import io.dpone.publication.protocol.MemberUnavailableException;
import io.dpone.publication.protocol.TableState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** A direct connection to one simulated member: ClickHouse semantics for exactly the statements dpone uses. */
final class SimMember implements ClusterMember {
    private final SimWorld world;
    private final MemberId id;

    SimMember(SimWorld world, MemberId id) {
        this.world = world;
        this.id = id;
    }

    private Map<String, SimTable> tables() {
        if (!world.reachable(id)) {
            throw new MemberUnavailableException(id, "a statement");
        }
        return world.tables.get(id);
    }

    @Override
    public Optional<TableState> table(String database, String table) {
        SimTable t = tables().get(SimWorld.key(database, table));
        return t == null ? Optional.empty() : Optional.of(new TableState(t.uuid, t.engine, t.comment, t.rows.size()));
    }

    @Override
    public void create(TableDefinition d) {
        Map<String, SimTable> tables = tables();
        world.faults.sideEffect("create on " + id);
        createOn(world, tables, d, world.newUuid(), null);
        world.faults.sideEffect("after create on " + id);
    }

    static void createOn(SimWorld world, Map<String, SimTable> tables, TableDefinition d, UUID uuid, SimTable.Log log) {
        String key = SimWorld.key(d.database(), d.name());
        if (tables.containsKey(key)) {
            throw new IllegalStateException("CREATE of an existing table " + d.name());
        }
        tables.put(key, new SimTable(uuid, d.engine(), d.marker().comment(), log));
    }

    @Override
    public void load(String database, String table, SealedArtifact artifact, String dedupToken) {
        SimTable t = tables().get(SimWorld.key(database, table));
        world.faults.sideEffect("load on " + id);
        if (t == null) {
            throw new IllegalStateException("load into a missing table");
        }
        List<Long> rows = world.artifactContent.get(artifact.sha256());
        if (t.replicated()) {
            if (t.log.tokens.add(dedupToken)) {
                t.log.rows.addAll(rows);
            }
            t.rows.clear();
            t.rows.addAll(t.log.rows);
        } else if (t.tokens.add(dedupToken)) {
            t.rows.addAll(rows);
        }
        world.faults.sideEffect("after load on " + id);
        if (id.equals(world.faults.ambiguousLoad)) {
            world.faults.ambiguousLoad = null;
            world.faults.fired.add("ambiguous_load");
            throw new MemberUnavailableException(id, "the load");
        }
    }

    @Override
    public boolean dropExact(String database, String table, UUID expected) {
        Map<String, SimTable> tables = tables();
        SimTable t = tables.get(SimWorld.key(database, table));
        if (t != null && io.dpone.publication.protocol.CleanupMutant.mutates()) {
            expected = t.uuid; // issue 17's mutant: the cleanup drops what it observes, not what it recorded
        }
        if (t == null || !t.uuid.equals(expected)) {
            return false;
        }
        world.faults.sideEffect("drop on " + id);
        SimInvariants.onDrop(world, id, t);
        tables.remove(SimWorld.key(database, table));
        world.dropped.add(expected);
        world.faults.sideEffect("after drop on " + id);
        return true;
    }

    @Override
    public void exchangeLocal(String database, String a, String b, String queryId) {
        Map<String, SimTable> tables = tables();
        world.faults.sideEffect("local exchange on " + id);
        exchange(tables, database, a, b);
        world.faults.sideEffect("after local exchange on " + id);
    }

    static void exchange(Map<String, SimTable> tables, String database, String a, String b) {
        SimTable ta = tables.get(SimWorld.key(database, a));
        SimTable tb = tables.get(SimWorld.key(database, b));
        if (ta == null || tb == null) {
            throw new IllegalStateException("EXCHANGE with a missing table");
        }
        tables.put(SimWorld.key(database, a), tb);
        tables.put(SimWorld.key(database, b), ta);
    }

    @Override
    public void syncReplica(String database, String table) {
        SimTable t = tables().get(SimWorld.key(database, table));
        if (t != null && t.replicated()) {
            t.rows.clear();
            t.rows.addAll(t.log.rows);
        }
    }
}
