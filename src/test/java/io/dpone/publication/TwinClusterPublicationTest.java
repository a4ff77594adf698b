package io.dpone.publication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import io.dpone.testing.Await;
import io.dpone.testing.TestEngines;
import io.dpone.testing.twin.TwinProcess;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * External-replication cluster publications on two HTTP twins as the two replicas of a one-shard cluster (their
 * engines' {@code remote_servers} define it; one embedded ZooKeeper holds KeeperMap and the twins' distributed-DDL
 * queue): admission over HTTP, the KeeperMap fence on the entry member, the sealed artifact, staging on every member
 * and the READY barrier, the fenced {@code EXCHANGE ... ON CLUSTER} through the queue, reconciliation, the durable
 * receipt and the exact cleanup. Member b fails before, during and after the DDL; each run stops typed and the same
 * run id finishes it once b is back. What the twins' queue cannot show is in docs/testing.md.
 */
@io.dpone.testing.ProcessTest
class TwinClusterPublicationTest {
    private static final String CLUSTER = "twin_cluster";
    private static final String A = "127.0.0.1:9000";
    private static final String B = "127.0.0.2:9000";
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
        a = TwinProcess.member(dir.resolve("twin-a"), config, A);
        b = TwinProcess.member(dir.resolve("twin-b"), config, B);
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
    void aMemberWhoseDdlWorkerStallsHoldsTheRunAtTheRecordedDdlAndTheSameRunIdPublishesOnceItIsBack()
            throws Exception {
        String h2 = source();
        String db = targetDatabase();
        Path manifest = manifest(db);
        b.fault("ddl_stall=1");
        RunReport r = Dpone.run(manifest, "twin-cluster-1", context(h2, false), ProgressListener.NONE, dir.resolve("work"));
        String json = ReportWriter.json(r);
        assertFalse(r.passed(), json);
        assertEquals("cluster_publication", r.routeId());
        assertEquals(List.of("publication.ddl_pending"), codes(r), json);
        assertEquals("DDL_RECORDED", r.publication().phase(), "admission, fence, seal, staging and barrier passed");
        assertEquals(2, r.publication().members().size(), json);
        assertEquals("3", targetRows(a, db), "a ran the exchange from the queue");
        assertEquals("0", targetRows(b, db), "b has not run it yet");
        try (ClickHouseEndpoint ch = a.endpoint()) {
            assertEquals(List.of(List.of("1")), ch.query("SELECT count() FROM dpone_authority.publication_fence"
                + " WHERE position(record, " + ClickHouseSql.literal("DDL_RECORDED") + ") > 0 AND position(record, "
                + ClickHouseSql.literal(r.publication().operationId()) + ") > 0"),
                "the fence record, at DDL_RECORDED, lives in KeeperMap on the entry member");
            assertEquals(List.of(List.of("127.0.0.1", "Finished"), List.of("127.0.0.2", "Inactive")), ch.query(
                "SELECT host, toString(status) FROM system.distributed_ddl_queue WHERE cluster = "
                    + ClickHouseSql.literal(CLUSTER) + " AND query LIKE " + ClickHouseSql.literal("EXCHANGE TABLES `"
                    + db + "`%") + " ORDER BY host"),
                "the queue shows the exchange finished on a and waiting for b");
        }
        try (var files = Files.walk(dir.resolve("artifacts"))) {
            assertTrue(files.anyMatch(f -> f.toString().endsWith(".parquet")), "the sealed artifact is stored");
        }
        assertFalse(json.contains(dir.toString()), "no local path in the report");
        assertFalse(json.contains("127.0.0."), "no member address in the report");

        // the same run id resumed after the members' aliases were swapped: the member ids are the same, the resolved
        // endpoint set is not, so the digest kept in the fence record refuses the resume before any member is touched
        RunReport remapped = Dpone.run(manifest, "twin-cluster-1", context(h2, true), ProgressListener.NONE,
            dir.resolve("work"));
        String remappedJson = ReportWriter.json(remapped);
        assertEquals(List.of("publication.inventory_changed"), codes(remapped), remappedJson);
        assertEquals(r.publication().members(), remapped.publication().members(), "the same member ids");
        assertFalse(r.publication().inventoryDigest().equals(remapped.publication().inventoryDigest()));
        assertEquals(r.publication().inventoryDigest(),
            remapped.blockers().get(0).details().get("recorded_inventory_digest"));
        assertEquals("DDL_RECORDED", remapped.publication().phase(), "the record is left as it was");
        assertFalse(remappedJson.contains("127.0.0."), "no member address in the refusal");
        assertFalse(remappedJson.contains(dir.toString()), "no local path in the refusal");
        for (String url : List.of(a.url(), b.url())) {
            assertFalse(remappedJson.contains(url), "no endpoint in the refusal");
        }

        // b's worker is stuck until it restarts: it then runs the queued exchange, and the resume proves the outcome
        b.kill();
        b = b.restart();
        RunReport done = Dpone.run(manifest, "twin-cluster-1", context(h2, false), ProgressListener.NONE,
            dir.resolve("work"));
        assertPublished(done, db, "DDL_RECORDED");
    }

    @Test
    void aMemberThatCrashesAfterRunningTheExchangeRunsItTwiceAndReconciliationSwapsItBack() throws Exception {
        String h2 = source();
        String db = targetDatabase();
        Path manifest = manifest(db);
        haltedRun(manifest, "twin-cluster-2", h2, "before_finished");

        // restarted, b finds the entry not recorded finished and runs the exchange again: its tables swap back
        b = b.restart();
        awaitFinished(db);
        assertEquals("0", targetRows(b, db), "b swapped the target back");
        assertPublished(Dpone.run(manifest, "twin-cluster-2", context(h2, false), ProgressListener.NONE,
            dir.resolve("work")), db, "DDL_RECORDED");
    }

    @Test
    void aMemberLostAfterTheExchangeLeavesTheReceiptToTheSameRunIdWhichCleansUpExactly() throws Exception {
        String h2 = source();
        String db = targetDatabase();
        Path manifest = manifest(db);
        haltedRun(manifest, "twin-cluster-3", h2, "after_finished");
        b = b.restart();
        assertEquals("3", targetRows(b, db), "b ran the exchange once");
        RunReport done = Dpone.run(manifest, "twin-cluster-3", context(h2, false), ProgressListener.NONE,
            dir.resolve("work"));
        assertPublished(done, db, "DDL_RECORDED");

        // the same run id once more: the receipt stands, nothing is sent or dropped again
        RunReport again = Dpone.run(manifest, "twin-cluster-3", context(h2, false), ProgressListener.NONE,
            dir.resolve("work"));
        assertTrue(again.passed(), ReportWriter.json(again));
        assertEquals("CLEANED", again.publication().phase());
        assertEquals(done.publication().receipt().generationId(), again.publication().receipt().generationId());
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            assertEquals(List.of(List.of("items", "3")), tables(t, db));
        }
    }

    /**
     * Runs {@code runId} with member b halting right after its DDL worker runs the exchange ({@code halt}: before or
     * after recording it finished): the run stops as {@code publication.member_unreachable} at DDL_RECORDED.
     */
    private static void haltedRun(Path manifest, String runId, String h2, String halt) throws Exception {
        b.fault("ddl_halt=" + halt);
        RunReport r = Dpone.run(manifest, runId, context(h2, false), ProgressListener.NONE, dir.resolve("work"));
        assertTrue(b.awaitExit(Duration.ofSeconds(30)), "b halted right after running the exchange (" + halt + ")");
        assertFalse(r.passed(), ReportWriter.json(r));
        assertEquals(List.of("publication.member_unreachable"), codes(r), ReportWriter.json(r));
        assertEquals("DDL_RECORDED", r.publication().phase());
    }

    /** The resumed run committed the receipt on both members and dropped every predecessor and candidate. */
    private static void assertPublished(RunReport done, String db, String resumedFrom) throws Exception {
        String json = ReportWriter.json(done);
        assertTrue(done.passed(), json);
        assertEquals(List.of(), codes(done), json);
        assertEquals("CLEANED", done.publication().phase(), json);
        assertEquals(resumedFrom, done.publication().resumedFrom(), json);
        assertTrue(done.publication().committed() && done.publication().cleanupComplete(), json);
        assertNotNull(done.publication().receipt(), json);
        assertEquals(3, done.publication().receipt().artifact().rows());
        assertEquals(2, done.publication().receipt().members().size(), json);
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            assertEquals(List.of(List.of("items", "3")), tables(t, db), "published everywhere, nothing left over");
            try (ClickHouseEndpoint ch = t.endpoint()) {
                assertEquals(List.of(List.of("1", "a"), List.of("2", "b"), List.of("3", "c")),
                    ch.query("SELECT toString(id), name FROM " + ClickHouseSql.table(db, "items") + " ORDER BY id"));
            }
        }
        assertFalse(json.contains("127.0.0."), "no member address in the report");
    }

    /** Waits (bounded) until every host recorded the newest exchange in the queue finished. */
    private static void awaitFinished(String db) throws Exception {
        String finished = "SELECT countIf(status = 'Finished') FROM system.distributed_ddl_queue WHERE entry = ("
            + "SELECT max(entry) FROM system.distributed_ddl_queue WHERE query LIKE "
            + ClickHouseSql.literal("EXCHANGE TABLES `" + db + "`%") + ")";
        try (ClickHouseEndpoint ch = a.endpoint()) {
            Await.until(Duration.ofSeconds(60), "b to run the queued exchange (both hosts finished)",
                () -> ch.query(finished).equals(List.of(List.of("2"))));
        }
    }

    /** The target's row count on {@code t}. */
    private static String targetRows(TwinProcess t, String db) throws Exception {
        return tables(t, db).stream().filter(r -> r.get(0).equals("items")).map(r -> r.get(1)).findFirst().orElseThrow();
    }

    /** Every table of {@code db} on {@code t} with its row count. */
    private static List<List<String>> tables(TwinProcess t, String db) throws Exception {
        try (ClickHouseEndpoint ch = t.endpoint()) {
            return ch.query("SELECT name, toString(total_rows) FROM system.tables WHERE database = "
                + ClickHouseSql.literal(db) + " ORDER BY name");
        }
    }

    private static List<String> codes(RunReport r) {
        return r.blockers().stream().map(Blocker::code).toList();
    }

    private static String source() throws Exception {
        String h2 = TestEngines.newH2Url();
        try (Connection c = DriverManager.getConnection(h2, "sa", ""); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA dbo");
            s.execute("CREATE TABLE dbo.items (id INT PRIMARY KEY, name NVARCHAR(20))");
            s.execute("INSERT INTO dbo.items VALUES (1, N'a'), (2, N'b'), (3, N'c')");
        }
        return h2;
    }

    private static String targetDatabase() throws Exception {
        String db = TestEngines.newDatabase("twin_pub");
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            try (ClickHouseEndpoint ch = t.endpoint()) {
                ch.execute("CREATE DATABASE " + ClickHouseSql.id(db) + " ENGINE = Atomic");
            }
        }
        return db;
    }

    private static Path manifest(String db) throws Exception {
        return Files.writeString(dir.resolve(db + ".batch.yaml"), """
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
    }

    /** The cluster alias on member a, its members mapped to the twins (swapped: each id to the other twin). */
    private static ConnectionContext context(String h2, boolean swapped) {
        ContextEntry entry = a.alias("cluster_ch");
        Map<String, String> options = new HashMap<>();
        options.put("members", swapped ? A + "=twin_b, " + B + "=twin_a" : A + "=twin_a, " + B + "=twin_b");
        options.put("ddl_wait", "PT5S");
        return ConnectionContext.of(Map.of(
            TestEngines.SOURCE, TestEngines.sourceEntry(h2),
            "cluster_ch", new ContextEntry("cluster_ch", ConnectionType.CLICKHOUSE, entry.url(), entry.user(), null,
                entry.passwordFile(), false, options),
            "twin_a", a.alias("twin_a"), "twin_b", b.alias("twin_b")), false);
    }
}
