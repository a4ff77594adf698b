package io.dpone.publication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.error.Blocker;
import io.dpone.report.ReportWriter;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An external-replication cluster publication on two HTTP twins as the two members of a one-shard cluster (their
 * engines' {@code remote_servers} define it; both use one embedded ZooKeeper for KeeperMap): admission over HTTP,
 * the KeeperMap fence on the entry member, the sealed artifact, staging on every member and the READY barrier, then
 * the fenced {@code EXCHANGE ... ON CLUSTER}, which a twin cannot run (no distributed DDL queue): the run ends there,
 * red, with nothing published. ON CLUSTER stays covered by the publication simulation and the IT.
 */
@io.dpone.testing.ProcessTest
class TwinClusterPublicationTest {
    private static final String CLUSTER = "twin_cluster";
    private static TestingServer zooKeeper;
    private static TwinProcess a;
    private static TwinProcess b;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        zooKeeper = new TestingServer(port, dir.resolve("zookeeper").toFile(), true);
        Path config = Files.writeString(dir.resolve("twin-config.xml"), "<clickhouse><zookeeper><node><host>127.0.0.1"
            + "</host><port>" + port + "</port></node><session_timeout_ms>10000</session_timeout_ms></zookeeper>"
            + "<keeper_map_path_prefix>/dpone_twin_keeper_map</keeper_map_path_prefix>"
            + "<remote_servers><" + CLUSTER + "><shard><internal_replication>false</internal_replication>"
            + "<replica><host>127.0.0.1</host><port>9000</port></replica>"
            + "<replica><host>127.0.0.2</host><port>9000</port></replica></shard></" + CLUSTER + ">"
            + "</remote_servers></clickhouse>");
        a = TwinProcess.start(dir.resolve("twin-a"), config);
        b = TwinProcess.start(dir.resolve("twin-b"), config);
    }

    @AfterAll
    static void stop() throws Exception {
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            if (t != null) {
                t.close();
            }
        }
        if (zooKeeper != null) {
            zooKeeper.close();
        }
    }

    @Test
    void anExternalPublicationStagesOnBothTwinsPassesTheBarrierAndStopsAtTheDistributedDdl() throws Exception {
        String h2 = TestEngines.newH2Url();
        String db = TestEngines.newDatabase("twin_pub");
        try (Connection c = DriverManager.getConnection(h2, "sa", ""); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA dbo");
            s.execute("CREATE TABLE dbo.items (id INT PRIMARY KEY, name NVARCHAR(20))");
            s.execute("INSERT INTO dbo.items VALUES (1, N'a'), (2, N'b'), (3, N'c')");
        }
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            try (ClickHouseEndpoint ch = t.endpoint()) {
                ch.execute("CREATE DATABASE " + ClickHouseSql.id(db) + " ENGINE = Atomic");
            }
        }
        ContextEntry entry = a.alias("cluster_ch");
        Map<String, String> options = new HashMap<>();
        options.put("members", "127.0.0.1:9000=twin_a, 127.0.0.2:9000=twin_b");
        ConnectionContext ctx = ConnectionContext.of(Map.of(
            TestEngines.SOURCE, TestEngines.sourceEntry(h2),
            "cluster_ch", new ContextEntry("cluster_ch", ConnectionType.CLICKHOUSE, entry.url(), entry.user(), null,
                entry.passwordFile(), false, options),
            "twin_a", a.alias("twin_a"), "twin_b", b.alias("twin_b")), false);
        Path manifest = Files.writeString(dir.resolve("cluster.batch.yaml"), """
            name: twin-cluster
            source:
              type: mssql
              connection_ref: %s
              table: {schema: dbo, name: items}
            sink:
              type: clickhouse
              connection_ref: cluster_ch
              table: {schema: %s, name: items}
              staging: {schema: %s}
              strategy: {mode: full_refresh}
              options:
                lineage: false
                external_artifact_store_path: %s
                physical_design:
                  storage:
                    clickhouse:
                      engine: MergeTree
                      cluster: {name: %s, ddl_scope: cluster, replication_mode: external}
            """.formatted(TestEngines.SOURCE, db, db, dir.resolve("artifacts"), CLUSTER));
        RunReport r = Dpone.run(manifest, "twin-cluster-1", ctx, ProgressListener.NONE, dir.resolve("work"));
        String json = ReportWriter.json(r);
        assertFalse(r.passed(), json);
        assertEquals("cluster_publication", r.routeId());
        assertEquals(List.of("publication.ddl_failed"), r.blockers().stream().map(Blocker::code).toList(), json);
        assertTrue(r.blockers().get(0).message().contains("QUERY_IS_PROHIBITED"), json);
        assertEquals("DDL_RECORDED", r.publication().phase(), "admission, fence, seal, staging and barrier passed");
        assertEquals(2, r.publication().members().size(), json);
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            try (ClickHouseEndpoint ch = t.endpoint()) {
                List<List<String>> tables = ch.query("SELECT name, total_rows FROM system.tables WHERE database = "
                    + ClickHouseSql.literal(db) + " ORDER BY name");
                assertEquals(2, tables.size(), tables.toString());
                assertEquals(List.of("items", "0"), tables.get(0), "the target holds nothing published");
                assertTrue(tables.get(1).get(0).startsWith("items__dpone_g_") && tables.get(1).get(1).equals("3"),
                    "every member holds the READY candidate: " + tables);
            }
        }
        try (ClickHouseEndpoint ch = a.endpoint()) {
            assertEquals(List.of(List.of("1")), ch.query("SELECT count() FROM dpone_authority.publication_fence"),
                "the fence record lives in KeeperMap on the entry member");
        }
        try (var files = Files.walk(dir.resolve("artifacts"))) {
            assertTrue(files.anyMatch(f -> f.toString().endsWith(".parquet")), "the sealed artifact is stored");
        }
        assertFalse(json.contains(dir.toString()), "no local path in the report");
        assertFalse(json.contains("127.0.0."), "no member address in the report");

        // the same run id resumed after the members' aliases were swapped: the member ids are the same, the resolved
        // endpoint set is not, so the digest kept in the fence record refuses the resume before any member is touched
        Map<String, String> swapped = new HashMap<>(options);
        swapped.put("members", "127.0.0.1:9000=twin_b, 127.0.0.2:9000=twin_a");
        ConnectionContext remappedCtx = ConnectionContext.of(Map.of(
            TestEngines.SOURCE, TestEngines.sourceEntry(h2),
            "cluster_ch", new ContextEntry("cluster_ch", ConnectionType.CLICKHOUSE, entry.url(), entry.user(), null,
                entry.passwordFile(), false, swapped),
            "twin_a", a.alias("twin_a"), "twin_b", b.alias("twin_b")), false);
        RunReport remapped = Dpone.run(manifest, "twin-cluster-1", remappedCtx, ProgressListener.NONE, dir.resolve("work"));
        String remappedJson = ReportWriter.json(remapped);
        assertEquals(List.of("publication.inventory_changed"), remapped.blockers().stream().map(Blocker::code).toList(),
            remappedJson);
        assertEquals(r.publication().members(), remapped.publication().members(), "the same member ids");
        assertFalse(r.publication().inventoryDigest().equals(remapped.publication().inventoryDigest()));
        assertEquals(r.publication().inventoryDigest(),
            remapped.blockers().get(0).details().get("recorded_inventory_digest"));
        assertEquals("DDL_RECORDED", remapped.publication().phase(), "the record is left as it was");
        assertFalse(remappedJson.contains("127.0.0."), "no member address in the refusal");
        assertFalse(remappedJson.contains(dir.toString()), "no local path in the refusal");
        for (String url : List.of(a.alias("twin_a").url(), b.alias("twin_b").url())) {
            assertFalse(remappedJson.contains(url), "no endpoint in the refusal");
        }
    }
}
