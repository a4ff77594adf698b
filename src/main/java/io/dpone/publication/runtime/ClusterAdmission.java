package io.dpone.publication.runtime;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.publication.MemberId;
import io.dpone.publication.admission.AdmissionFailures;
import io.dpone.publication.admission.AdvertisedMember;
import io.dpone.publication.admission.ClusterInventory;
import io.dpone.publication.admission.DdlQueueSettings;
import io.dpone.publication.admission.EndpointResolver;
import io.dpone.publication.admission.InventoryViews;
import io.dpone.publication.admission.MemberAdmissionChecks;
import io.dpone.publication.admission.SystemClustersInventoryReader;
import io.dpone.publication.protocol.PublicationMode;
import io.dpone.publication.protocol.PublicationTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runtime admission, before any source extraction and before the Keeper lock: the member inventory read through
 * the sink connection (exactly one shard, at least two members, one {@code internal_replication} value matching the
 * mode), a direct connection opened to every member through the resolver, every member's own
 * {@code system.clusters} view compared with that inventory, and each member's checks (Atomic database, target
 * engine per mode, no Distributed target, grants, DDL queue retention). The resolved endpoint set is bound into
 * the inventory digest, and the strictest member's distributed-DDL queue settings are kept for the reconciler.
 * Every problem is collected as a typed blocker (an admission query a server refuses included); on any, every
 * opened connection is closed.
 */
public final class ClusterAdmission {
    /** The subject of findings about the entry (sink) connection. */
    static final String ENTRY = "sink.connection_ref";

    private ClusterAdmission() {
    }

    /**
     * The admitted inventory, one open endpoint per member in inventory order, and the cluster's effective
     * distributed-DDL queue settings (the strictest member's).
     */
    public record Admitted(ClusterInventory inventory, Map<MemberId, ClickHouseEndpoint> endpoints,
                           DdlQueueSettings ddlQueue) implements AutoCloseable {
        @Override
        public void close() {
            endpoints.values().forEach(ClickHouseEndpoint::close);
        }
    }

    public static Admitted admit(ClickHouseEndpoint entry, EndpointResolver resolver, PublicationTarget target,
                                 Duration maxRecoveryWindow) {
        List<AdvertisedMember> members = new ArrayList<>(AdmissionFailures.query(ENTRY, "system.clusters",
            () -> new SystemClustersInventoryReader(entry).read(target.cluster())));
        members.sort(Comparator.comparingInt(AdvertisedMember::shardNum).thenComparingInt(AdvertisedMember::replicaNum));
        List<Blocker> blockers = new ArrayList<>(shape(members, target.mode()));
        Map<MemberId, ClickHouseEndpoint> endpoints = new LinkedHashMap<>();
        List<DdlQueueSettings> queues = new ArrayList<>();
        StringBuilder digest = new StringBuilder(target.cluster());
        MemberAdmissionChecks.Mode mode = target.mode() == PublicationMode.INTERNAL
            ? MemberAdmissionChecks.Mode.INTERNAL : MemberAdmissionChecks.Mode.EXTERNAL;
        if (blockers.isEmpty()) {
            for (AdvertisedMember m : members) {
                try {
                    ClickHouseEndpoint e = open(resolver, m);
                    endpoints.put(m.id(), e);
                    digest.append('\n').append(m.id()).append(' ').append(identity(resolver, m));
                    List<AdvertisedMember> view = AdmissionFailures.query(m.id().toString(), "system.clusters",
                        () -> new SystemClustersInventoryReader(e).view(target.cluster()));
                    InventoryViews.compare(members, m.id(), view).ifPresent(blockers::add);
                    DdlQueueSettings queue = DdlQueueSettings.read(m.id(), e);
                    queues.add(queue);
                    blockers.addAll(MemberAdmissionChecks.check(m.id(), e, target.database(), target.table(), mode,
                        maxRecoveryWindow, queue));
                } catch (DponeException ex) {
                    blockers.addAll(ex.blockers());
                }
            }
        }
        if (!blockers.isEmpty()) {
            endpoints.values().forEach(ClickHouseEndpoint::close);
            throw new DponeException(blockers);
        }
        List<MemberId> ids = List.copyOf(endpoints.keySet());
        ClusterInventory inventory = new ClusterInventory(target.cluster(), ids, target.mode() == PublicationMode.INTERNAL,
            "inv-" + MemberId.Digests.sha256Hex(digest.toString()).substring(0, 24));
        return new Admitted(inventory, endpoints, DdlQueueSettings.strictest(queues));
    }

    /** A resolver that fails with anything but a typed blocker still yields {@code publication.member_unresolved}. */
    private static ClickHouseEndpoint open(EndpointResolver resolver, AdvertisedMember m) {
        try {
            return resolver.open(m);
        } catch (DponeException e) {
            throw e;
        } catch (RuntimeException e) {
            throw unresolved(m);
        }
    }

    private static String identity(EndpointResolver resolver, AdvertisedMember m) {
        try {
            return resolver.resolvedIdentity(m);
        } catch (DponeException e) {
            throw e;
        } catch (RuntimeException e) {
            throw unresolved(m);
        }
    }

    private static DponeException unresolved(AdvertisedMember m) {
        return new DponeException(BlockerCode.PUBLICATION_MEMBER_UNRESOLVED, m.id().toString(),
            "member " + m.id() + " cannot be resolved to a direct connection: the endpoint resolver failed");
    }

    /** The inventory's shape: one shard, at least two members, one internal_replication value that fits the mode. */
    static List<Blocker> shape(List<AdvertisedMember> members, PublicationMode mode) {
        List<Blocker> blockers = new ArrayList<>();
        Set<Integer> shards = members.stream().map(AdvertisedMember::shardNum).collect(Collectors.toSet());
        if (shards.size() != 1) {
            blockers.add(Blocker.of(BlockerCode.PUBLICATION_CLUSTER_NOT_ONE_SHARD, "cluster",
                "the publication cluster must have exactly one shard", Map.of("shards", shards.size())));
        }
        if (members.size() < 2) {
            blockers.add(Blocker.of(BlockerCode.PUBLICATION_CLUSTER_TOO_FEW_MEMBERS, "cluster",
                "the publication cluster must have at least two members", Map.of("members", members.size())));
        }
        Set<Boolean> flags = members.stream().map(AdvertisedMember::internalReplication).collect(Collectors.toSet());
        if (flags.size() > 1) {
            blockers.add(Blocker.of(BlockerCode.PUBLICATION_INTERNAL_REPLICATION_MIXED, "cluster",
                "the members report different internal_replication values"));
        } else if (flags.size() == 1 && flags.iterator().next() != (mode == PublicationMode.INTERNAL)) {
            blockers.add(Blocker.of(BlockerCode.PUBLICATION_INTERNAL_REPLICATION_MISMATCH, "cluster",
                "the cluster's internal_replication does not match replication_mode " + mode.replicationMode()));
        }
        return blockers;
    }
}
