package io.dpone.publication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.ServerClickHouseEndpoint;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.publication.admission.AdvertisedMember;
import io.dpone.publication.admission.ConfiguredEndpointResolver;
import io.dpone.publication.admission.MemberAdmissionChecks;
import io.dpone.publication.admission.SystemClustersInventoryReader;
import io.dpone.publication.artifact.ArtifactFixtures;
import io.dpone.publication.artifact.FileArtifactStore;
import io.dpone.publication.artifact.GenerationMarker;
import io.dpone.publication.artifact.SealedArtifact;
import io.dpone.publication.artifact.TableDefinition;
import io.dpone.publication.clickhouse.ClickHouseClusterDdl;
import io.dpone.publication.clickhouse.ClickHouseClusterMember;
import io.dpone.publication.keeper.KeeperMapAuthority;
import io.dpone.publication.protocol.ClusterStatement;
import io.dpone.publication.protocol.DdlQueueEntry;
import io.dpone.publication.protocol.FenceRecord;
import io.dpone.publication.protocol.PublicationAuthority;
import io.dpone.publication.protocol.TableState;
import io.dpone.source.JdbcSourceReader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The publication adapters against the docker-compose cluster (one Keeper, ch1 and ch2 with
 * {@code analytics_cluster} internal_replication=true and {@code analytics_cluster_external} false): admission
 * reads, direct member operations on every member, ON CLUSTER DDL bound to its queue entry, and the KeeperMap
 * authority contract on the real Keeper. Skipped when no Docker engine is available. The full protocol (crash and
 * resume) is added on top by the protocol's owner.
 */
@Testcontainers(disabledWithoutDocker = true)
class ClusterPublicationIT {
    static final String EXTERNAL = "analytics_cluster_external";
    static final String DB = "analytics";
    static final String PASSWORD = "ch-" + UUID.randomUUID().toString().replace("-", "");

    @Container
    static final ComposeContainer COMPOSE = new ComposeContainer(new File("docker-compose.yml"))
        .withServices("keeper", "ch1", "ch2")
        .withEnv(env())
        .withExposedService("ch1", 8123, Wait.forHttp("/ping").withStartupTimeout(Duration.ofMinutes(3)))
        .withExposedService("ch2", 8123, Wait.forHttp("/ping").withStartupTimeout(Duration.ofMinutes(3)));

    @TempDir
    static Path dir;

    static ConnectionContext context;
    static ClickHouseEndpoint ch1;
    static List<AdvertisedMember> members;
    static Map<MemberId, ClickHouseClusterMember> direct = new LinkedHashMap<>();
    static Map<MemberId, ClickHouseEndpoint> endpoints = new LinkedHashMap<>();
    static List<ClickHouseEndpoint> open = new ArrayList<>();
    static FileArtifactStore store;

    /** Every variable docker-compose.yml requires, with throwaway values (only keeper, ch1 and ch2 start). */
    static Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("CLICKHOUSE_USER", "dpone");
        env.put("CLICKHOUSE_PASSWORD", PASSWORD);
        env.put("CLICKHOUSE_CLUSTER_SECRET", UUID.randomUUID().toString());
        env.put("DPONE_S3_SECRET_KEY", UUID.randomUUID().toString());
        env.put("MSSQL_SA_PASSWORD", "Dp1!" + UUID.randomUUID().toString().replace("-", ""));
        env.put("MINIO_ROOT_USER", "minio-it");
        env.put("MINIO_ROOT_PASSWORD", UUID.randomUUID().toString());
        return env;
    }

    static String url(String service) {
        return "http://" + COMPOSE.getServiceHost(service, 8123) + ":" + COMPOSE.getServicePort(service, 8123);
    }

    @BeforeAll
    static void setUp() throws Exception {
        Path passwordFile = dir.resolve("clickhouse.password");
        Files.writeString(passwordFile, PASSWORD);
        Map<String, ContextEntry> entries = new HashMap<>();
        entries.put("cluster", new ContextEntry("cluster", ConnectionType.CLICKHOUSE, url("ch1"), "dpone", null,
            passwordFile.toString(), false, Map.of(ConfiguredEndpointResolver.MEMBERS_OPTION,
                "ch1:9000=ch1_http, ch2:9000=ch2_http")));
        for (String ch : List.of("ch1", "ch2")) {
            entries.put(ch + "_http", new ContextEntry(ch + "_http", ConnectionType.CLICKHOUSE, url(ch), "dpone", null,
                passwordFile.toString(), false, Map.of()));
        }
        context = ConnectionContext.of(entries, false);
        ch1 = ServerClickHouseEndpoint.open(context.resolve("cluster", ConnectionType.CLICKHOUSE, "cluster"));
        open.add(ch1);
        ch1.execute("CREATE DATABASE IF NOT EXISTS " + ClickHouseSql.id(DB) + " ON CLUSTER " + ClickHouseSql.id(EXTERNAL)
            + " ENGINE = Atomic");
        members = new SystemClustersInventoryReader(ch1).read(EXTERNAL);
        ConfiguredEndpointResolver resolver = new ConfiguredEndpointResolver(context, "cluster");
        store = new FileArtifactStore(dir.resolve("artifacts"));
        for (AdvertisedMember m : members) {
            ClickHouseEndpoint e = resolver.open(m);
            open.add(e);
            endpoints.put(m.id(), e);
            direct.put(m.id(), new ClickHouseClusterMember(m.id(), e, store));
        }
    }

    @AfterAll
    static void tearDown() {
        open.forEach(ClickHouseEndpoint::close);
    }

    @Test
    void inventoryIsOneShardOfTwoExternalMembers() {
        assertEquals(2, members.size());
        assertTrue(members.stream().allMatch(m -> m.shardNum() == 1 && !m.internalReplication()));
        assertTrue(new SystemClustersInventoryReader(ch1).read("analytics_cluster").stream()
            .allMatch(AdvertisedMember::internalReplication));
        for (AdvertisedMember m : members) {
            assertEquals(List.of(), MemberAdmissionChecks.check(m.id(), endpoints.get(m.id()), DB, "it_absent_target",
                MemberAdmissionChecks.Mode.EXTERNAL, Duration.ofDays(1)).stream().map(b -> b.code()).toList());
        }
    }

    @Test
    void stageOnEveryMemberThenExchangeOnClusterBoundToItsQueueEntry() throws Exception {
        SealedArtifact artifact;
        try (JdbcSourceReader reader = ArtifactFixtures.reader(ArtifactFixtures.source(100))) {
            artifact = store.seal("op-it-1", ArtifactFixtures.extraction(reader, 0, 0));
        }
        String target = "it_target_" + Long.toHexString(System.nanoTime());
        String candidate = target + "_cand";
        GenerationMarker oldMarker = new GenerationMarker("g-old", "op-it-0");
        GenerationMarker newMarker = new GenerationMarker("g-new", "op-it-1");
        Map<MemberId, UUID> before = new HashMap<>();
        Map<MemberId, UUID> staged = new HashMap<>();
        for (ClickHouseClusterMember m : direct.values()) {
            m.create(new TableDefinition(DB, target, artifact.columns(), "MergeTree", List.of("id"), oldMarker));
            m.create(new TableDefinition(DB, candidate, artifact.columns(), "MergeTree", List.of("id"), newMarker));
            m.load(DB, candidate, artifact, "op-it-1-g-new-" + m.id());
            m.load(DB, candidate, artifact, "op-it-1-g-new-" + m.id());
            TableState s = m.table(DB, candidate).orElseThrow();
            assertEquals(100, s.rows(), "the retried load is deduplicated");
            staged.put(m.id(), s.uuid());
            before.put(m.id(), m.table(DB, target).orElseThrow().uuid());
        }
        ClickHouseClusterDdl ddl = new ClickHouseClusterDdl(EXTERNAL, (ServerClickHouseEndpoint) ch1,
            Duration.ofMinutes(2));
        String queryId = "dpone-it-exchange-" + Long.toHexString(System.nanoTime());
        assertTrue(ddl.entry(queryId).isEmpty(), "never sent");
        ddl.submit(queryId, new ClusterStatement.Exchange(DB, target, candidate));
        Optional<DdlQueueEntry> entry = ddl.entry(queryId);
        assertTrue(entry.isPresent());
        assertTrue(entry.get().finishedEverywhere(direct.keySet()), entry.get().members().toString());
        for (ClickHouseClusterMember m : direct.values()) {
            TableState published = m.table(DB, target).orElseThrow();
            assertEquals(staged.get(m.id()), published.uuid());
            assertEquals(newMarker, published.marker());
            assertEquals(100, published.rows());
            assertFalse(m.dropExact(DB, candidate, staged.get(m.id())), "the predecessor has another UUID");
            assertTrue(m.dropExact(DB, candidate, before.get(m.id())));
        }
    }

    @Test
    void createOnClusterReachesEveryMember() {
        String name = "it_created_" + Long.toHexString(System.nanoTime());
        ClickHouseClusterDdl ddl = new ClickHouseClusterDdl(EXTERNAL, (ServerClickHouseEndpoint) ch1,
            Duration.ofMinutes(2));
        String queryId = "dpone-it-create-" + Long.toHexString(System.nanoTime());
        ddl.submit(queryId, new ClusterStatement.Create(new TableDefinition(DB, name,
            List.of(new TableDefinition.Column("id", "Int64")), "MergeTree", List.of("id"),
            new GenerationMarker("g-c", "op-c"))));
        assertTrue(ddl.entry(queryId).orElseThrow().finishedEverywhere(direct.keySet()));
        for (ClickHouseClusterMember m : direct.values()) {
            assertEquals("g-c", m.table(DB, name).orElseThrow().marker().generationId());
        }
        Map<MemberId, UUID> uuids = new HashMap<>();
        direct.values().forEach(m -> uuids.put(m.id(), m.table(DB, name).orElseThrow().uuid()));
        assertNotEquals(null, uuids.values().iterator().next());
    }

    /** The authority contract on the real Keeper, through the initiator. */
    @Test
    void keeperMapAuthorityOnTheClusterKeeper() {
        PublicationAuthority authority = KeeperMapAuthority.open(ch1, "dpone_authority", "publication_fence",
            "/dpone/publication_fence");
        String key = "analytics.it_target." + Long.toHexString(System.nanoTime());
        assertTrue(authority.create(key, FenceRecord.fenced("op-it-a")));
        assertFalse(authority.create(key, FenceRecord.fenced("op-it-b")));
        long v = authority.read(key).orElseThrow().version();
        FenceRecord sealed = FenceRecord.fenced("op-it-a").sealed("g-it", "aa".repeat(32), 100);
        assertTrue(authority.replace(key, v, sealed));
        assertFalse(authority.replace(key, v, sealed), "stale version");
        assertEquals(sealed, authority.read(key).orElseThrow().record());
    }

    // ---- the full protocol through the runtime entry point, both modes, with a killed loader ----

    /** Thrown by the fault-injecting member: the loader process "dies" here (an Error, nothing catches it). */
    static final class Killed extends Error {
        Killed() {
            super("loader killed", null, false, false);
        }
    }

    /** A member connection that kills the loader right after its first successful load. */
    static io.dpone.publication.protocol.ClusterMember killAfterLoad(io.dpone.publication.protocol.ClusterMember m,
                                                                   boolean[] armed) {
        return new io.dpone.publication.protocol.ClusterMember() {
            public Optional<TableState> table(String d, String t) { return m.table(d, t); }
            public void create(TableDefinition def) { m.create(def); }
            public void load(String d, String t, SealedArtifact a, String token) {
                m.load(d, t, a, token);
                if (armed[0]) {
                    armed[0] = false;
                    throw new Killed();
                }
            }
            public boolean dropExact(String d, String t, UUID u) { return m.dropExact(d, t, u); }
            public void exchangeLocal(String d, String a, String b, String q) { m.exchangeLocal(d, a, b, q); }
            public void syncReplica(String d, String t) { m.syncReplica(d, t); }
        };
    }

    static String sourceWithRows(int rows) throws Exception {
        String h2 = io.dpone.testing.TestEngines.newH2Url();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(h2, "sa", "");
             java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA dbo");
            s.execute("CREATE TABLE dbo.items (id INT PRIMARY KEY, name NVARCHAR(40), amount DECIMAL(18,4))");
            s.execute("INSERT INTO dbo.items SELECT x, CONCAT('item-', x), x / 7.0 FROM SYSTEM_RANGE(1, " + rows + ")");
        }
        return h2;
    }

    static Path clusterManifest(String cluster, String mode, String engine, String table) throws Exception {
        return Files.writeString(dir.resolve(table + ".yaml"), """
            name: it-%s
            source: {type: mssql, connection_ref: it_source, table: {schema: dbo, name: items}}
            sink:
              type: clickhouse
              connection_ref: cluster
              table: {schema: %s, name: %s}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options:
                lineage: false
                order_by: [id]
                external_artifact_store_path: %s
                physical_design:
                  storage:
                    clickhouse:
                      engine: %s
                      cluster: {name: %s, ddl_scope: cluster, replication_mode: %s}
            """.formatted(table, DB, table, DB, dir.resolve("run-artifacts"), engine, cluster, mode));
    }

    static io.dpone.route.RunReport publish(Path manifest, String runId, String h2, boolean[] armed) {
        Map<String, ContextEntry> entries = new HashMap<>();
        for (String alias : List.of("cluster", "ch1_http", "ch2_http")) {
            entries.put(alias, context.entry(alias).orElseThrow());
        }
        entries.put("it_source", new ContextEntry("it_source", ConnectionType.MSSQL, h2, "sa", null, null, false, Map.of()));
        ConnectionContext ctx = ConnectionContext.of(entries, false);
        io.dpone.manifest.BatchManifest m = io.dpone.manifest.ManifestLoader.load(manifest);
        return io.dpone.route.RunReport.ofCluster(new io.dpone.publication.runtime.ClusterPublicationRunner(ctx,
            name -> null, member -> killAfterLoad(member, armed)).run(m, runId));
    }

    void assertPublishedEverywhere(String table, long rows, io.dpone.route.RunReport report) {
        assertTrue(report.passed(), report.blockers().toString());
        var receipt = report.publication().receipt();
        assertEquals("UNVERIFIED", receipt.evidenceStatus());
        for (ClickHouseEndpoint e : endpoints.values()) {
            assertEquals(String.valueOf(rows), e.query("SELECT count() FROM " + ClickHouseSql.table(DB, table)).get(0).get(0));
            assertEquals(String.valueOf(rows), e.query("SELECT uniqExact(id) FROM " + ClickHouseSql.table(DB, table)).get(0).get(0));
            assertTrue(e.query("SELECT comment FROM system.tables WHERE database = " + ClickHouseSql.literal(DB)
                + " AND name = " + ClickHouseSql.literal(table)).get(0).get(0).contains(receipt.generationId()));
            assertEquals("0", e.query("SELECT count() FROM system.tables WHERE database = " + ClickHouseSql.literal(DB)
                + " AND name LIKE " + ClickHouseSql.literal(table + "__dpone_%")).get(0).get(0), "cleanup is exact");
        }
    }

    @Test
    void externalModeSurvivesAKilledLoaderAndResumesWithTheSameRunId() throws Exception {
        String h2 = sourceWithRows(5000);
        Path manifest = clusterManifest(EXTERNAL, "external", "MergeTree", "it_external_items");
        boolean[] armed = {true};
        try {
            publish(manifest, "it-external-001", h2, armed);
        } catch (Killed expected) {
            // the loader died after the first member load
        }
        assertFalse(armed[0], "the fault fired");
        assertPublishedEverywhere("it_external_items", 5000, publish(manifest, "it-external-001", h2, armed));
        var again = publish(manifest, "it-external-001", h2, armed);
        assertEquals("CLEANED", again.publication().resumedFrom(), "a finished operation is not repeated");
        var other = publish(manifest, "it-external-002", sourceWithRows(7), armed);
        assertPublishedEverywhere("it_external_items", 7, other);
    }

    @Test
    void internalModePublishesOneReplicatedGenerationAndResumes() throws Exception {
        String h2 = sourceWithRows(3000);
        Path manifest = clusterManifest("analytics_cluster", "internal", "ReplicatedMergeTree", "it_internal_items");
        boolean[] armed = {true};
        try {
            publish(manifest, "it-internal-001", h2, armed);
        } catch (Killed expected) {
            // died after the one load
        }
        assertPublishedEverywhere("it_internal_items", 3000, publish(manifest, "it-internal-001", h2, armed));
    }

    @Test
    void aDifferentOperationIsFencedWhileTheFirstIsUnresolved() throws Exception {
        String h2 = sourceWithRows(10);
        Path manifest = clusterManifest(EXTERNAL, "external", "MergeTree", "it_fenced_items");
        boolean[] armed = {true};
        try {
            publish(manifest, "it-fence-001", h2, armed);
        } catch (Killed expected) {
            // left FENCED/SEALED with one candidate loaded
        }
        var fenced = publish(manifest, "it-fence-002", h2, new boolean[] {false});
        assertEquals("publication.fenced", fenced.blockers().get(0).code());
        assertPublishedEverywhere("it_fenced_items", 10, publish(manifest, "it-fence-001", h2, new boolean[] {false}));
    }
}
