package io.dpone.publication.sim;

import io.dpone.publication.MemberId;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.protocol.DdlQueueEntry;
import io.dpone.publication.protocol.PublicationAuthority;
import io.dpone.publication.protocol.Receipt;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.HashSet;
import java.util.UUID;

/**
 * Everything that survives a crash in the simulated deployment: member tables, the replication logs, the
 * authority records, the artifact and receipt stores, the distributed-DDL queue, time and the source. Process
 * objects (the protocol and its adapters) are rebuilt from it on every resume, as a restarted worker would.
 */
final class SimWorld {
    static final String CLUSTER = "analytics_cluster";
    final Random random;
    final SimFaults faults = new SimFaults();
    final List<MemberId> memberIds = new ArrayList<>();
    final Map<MemberId, Map<String, SimTable>> tables = new LinkedHashMap<>();
    final Map<String, PublicationAuthority.Fence> authority = new HashMap<>();
    final Map<String, SealedArtifact> artifacts = new HashMap<>();
    final Map<String, List<Long>> artifactContent = new HashMap<>();
    final Map<String, Receipt> receipts = new HashMap<>();
    final Set<String> sourceAdvanced = new HashSet<>();
    final Map<String, SimDdl.Entry> ddlQueue = new LinkedHashMap<>();
    final List<UUID> dropped = new ArrayList<>();
    final List<String> violations = new ArrayList<>();
    Instant now = Instant.parse("2026-12-02T00:00:00Z");
    List<Long> source = new ArrayList<>();
    long seq;

    SimWorld(long seed, int members) {
        this.random = new Random(seed);
        for (int i = 1; i <= members; i++) {
            MemberId id = MemberId.of(CLUSTER, "ch" + i, 9000);
            memberIds.add(id);
            tables.put(id, new LinkedHashMap<>());
        }
    }

    UUID newUuid() {
        return new UUID(0x5eed, ++seq);
    }

    static String key(String database, String table) {
        return database + "." + table;
    }

    /** Time passes while no process runs (between a crash and the resume): the DDL workers keep working. */
    void elapse(Duration d) {
        now = now.plus(d);
        SimDdl.work(this);
    }

    boolean reachable(MemberId m) {
        return !faults.unreachable.contains(m);
    }

    DdlQueueEntry.Status status(String queryId, MemberId m) {
        SimDdl.Entry e = ddlQueue.get(queryId);
        return e == null ? null : e.status.get(m);
    }
}
