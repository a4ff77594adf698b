package io.dpone.publication.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.testing.TestEngines;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@io.dpone.testing.EngineTest
class InventoryAndResolverTest {
    static final String CLUSTER = "analytics_cluster_external";

    @Test
    void clusterRowsBecomeOrderedAdvertisedMembers() {
        List<AdvertisedMember> members = SystemClustersInventoryReader.fromRows(CLUSTER, List.of(
            List.of("ch1", "9000", "1", "1", "0"), List.of("ch2", "9000", "1", "2", "0")));
        assertEquals(2, members.size());
        assertEquals("ch2", members.get(1).host());
        assertFalse(members.get(0).internalReplication());
        assertNotEquals(members.get(0).id(), members.get(1).id());
        assertFalse(members.get(0).toString().contains("ch1"));
        assertTrue(SystemClustersInventoryReader.fromRows(CLUSTER, List.of(List.of("ch1", "9000", "1", "1", "1")))
            .get(0).internalReplication());
    }

    @Test
    void anUnknownClusterIsAnIncompleteInventory() {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            DponeException e = assertThrows(DponeException.class,
                () -> new SystemClustersInventoryReader(ch).read("no_such_cluster"));
            assertEquals(BlockerCode.PUBLICATION_INVENTORY_INCOMPLETE.code(), e.blockers().get(0).code());
        }
    }

    @Test
    void theEmbeddedEnginesClusterReadsAsTwoMembers() {
        try (ClickHouseEndpoint ch = TestEngines.clickhouse()) {
            List<AdvertisedMember> members = new SystemClustersInventoryReader(ch).read(TestEngines.PUBLICATION_CLUSTER);
            assertEquals(2, members.size());
            assertEquals(List.of(1, 2), members.stream().map(AdvertisedMember::replicaNum).toList());
            assertTrue(members.stream().allMatch(m -> m.shardNum() == 1 && !m.internalReplication()));
            assertEquals(9000, members.get(0).port());
        }
    }

    static ConnectionContext context(String members) {
        return ConnectionContext.of(Map.of(
            "cluster", new ContextEntry("cluster", ConnectionType.CLICKHOUSE, "http://ch1:8123", "dpone", null, null,
                false, Map.of("members", members)),
            "ch1_http", new ContextEntry("ch1_http", ConnectionType.CLICKHOUSE, null, null, null, null, true,
                Map.of("path", TestEngines.clickHousePath().toString())),
            "ch2_http", new ContextEntry("ch2_http", ConnectionType.CLICKHOUSE, "http://10.0.0.2:18123", "dpone",
                null, null, false, Map.of()),
            "src", new ContextEntry("src", ConnectionType.MSSQL, "jdbc:h2:mem:x", "sa", null, null, false, Map.of())),
            false);
    }

    @Test
    void membersResolveThroughTheirAliases() {
        ConfiguredEndpointResolver r = new ConfiguredEndpointResolver(
            context("ch1:9000=ch1_http, ch2:9000=ch2_http, ch3:9000=src"), "cluster");
        AdvertisedMember ch1 = new AdvertisedMember(CLUSTER, "ch1", 9000, 1, 1, false);
        AdvertisedMember ch2 = new AdvertisedMember(CLUSTER, "ch2", 9000, 1, 2, false);
        try (ClickHouseEndpoint e = r.open(ch1)) {
            assertEquals(List.of(List.of("1")), e.query("SELECT 1"));
        }
        String id1 = r.resolvedIdentity(ch1);
        String id2 = r.resolvedIdentity(ch2);
        assertTrue(id1.matches("r-[0-9a-f]{16}"));
        assertNotEquals(id1, id2);
        assertFalse(id2.contains("10.0.0.2"));
        DponeException unmapped = assertThrows(DponeException.class,
            () -> r.open(new AdvertisedMember(CLUSTER, "ch9", 9000, 1, 3, false)));
        assertEquals(BlockerCode.PUBLICATION_MEMBER_UNRESOLVED.code(), unmapped.blockers().get(0).code());
        assertFalse(unmapped.getMessage().contains("ch9"));
        DponeException wrongType = assertThrows(DponeException.class,
            () -> r.open(new AdvertisedMember(CLUSTER, "ch3", 9000, 1, 3, false)));
        assertEquals(BlockerCode.PUBLICATION_MEMBER_UNRESOLVED.code(), wrongType.blockers().get(0).code());
    }

    @Test
    void aMalformedMemberListIsAContextBlocker() {
        DponeException e = assertThrows(DponeException.class,
            () -> new ConfiguredEndpointResolver(context("ch1=ch1_http"), "cluster"));
        assertEquals(BlockerCode.CONNECTION_CONTEXT_INVALID.code(), e.blockers().get(0).code());
    }
}
