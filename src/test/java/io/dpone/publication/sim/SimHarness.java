package io.dpone.publication.sim;

import io.dpone.publication.MemberId;
import io.dpone.publication.admission.ClusterInventory;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.protocol.ClusterMember;
import io.dpone.publication.protocol.ClusterPublication;
import io.dpone.publication.protocol.OperationIds;
import io.dpone.publication.protocol.PublicationEnvironment;
import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationOutcome;
import io.dpone.publication.protocol.PublicationSettings;
import io.dpone.publication.protocol.PublicationTarget;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds worlds and restarted "processes" (a fresh protocol and adapters over the same durable world). */
final class SimHarness {
    static final PublicationSettings SETTINGS = new PublicationSettings(Duration.ofHours(6), Duration.ofHours(1),
        Duration.ofSeconds(30), Duration.ofSeconds(1));

    private SimHarness() {
    }

    /** A world with {@code members} members, a source of {@code rows} rows, and (optionally) an old target. */
    static SimWorld world(long seed, int members, PublicationMode mode, int rows, boolean oldTarget) {
        SimWorld w = new SimWorld(seed, members);
        for (int i = 0; i < rows; i++) {
            w.source.add(1_000_000L * (seed + 1) + i);
        }
        List<Long> old = oldTarget ? List.of(-1L, -2L, -3L) : List.of();
        if (oldTarget) {
            SimTable.Log shared = mode == PublicationMode.INTERNAL ? new SimTable.Log() : null;
            java.util.UUID uuid = w.newUuid();
            for (MemberId id : w.memberIds) {
                SimTable t = new SimTable(mode == PublicationMode.INTERNAL ? uuid : w.newUuid(),
                    engine(mode), new GenerationMarker("initial", "op-legacy").comment(), shared);
                t.rows.addAll(old);
                w.tables.get(id).put(SimWorld.key(SimInvariants.DB, SimInvariants.TABLE), t);
            }
        }
        SimInvariants.recordInitial(w, old);
        return w;
    }

    static String engine(PublicationMode mode) {
        return mode == PublicationMode.INTERNAL ? "ReplicatedMergeTree" : "MergeTree";
    }

    static PublicationTarget target(PublicationMode mode, Long budget) {
        return new PublicationTarget(mode, SimWorld.CLUSTER, SimInvariants.DB, SimInvariants.TABLE, engine(mode),
            List.of("id"), budget);
    }

    static String operationId(String runId) {
        return OperationIds.operation(runId, "plan-digest-sim");
    }

    /** One process run of the protocol for {@code runId}. */
    static PublicationOutcome run(SimWorld w, String runId, PublicationMode mode, Long budget) {
        Map<MemberId, ClusterMember> members = new LinkedHashMap<>();
        w.memberIds.forEach(id -> members.put(id, new SimMember(w, id)));
        ClusterInventory inventory = new ClusterInventory(SimWorld.CLUSTER, w.memberIds,
            mode == PublicationMode.INTERNAL, "inv-sim");
        PublicationEnvironment env = new PublicationEnvironment(runId, operationId(runId), target(mode, budget),
            inventory, members, new SimDdl(w), new SimStores.Authority(w), new SimStores.Artifacts(w),
            SimStores.extraction(), new SimStores.Receipts(w), SimStores.sourceState(w), SimStores.clock(w),
            SETTINGS);
        return new ClusterPublication(env).run();
    }
}
