package io.dpone.publication;

import static io.dpone.publication.TwinPublications.codes;
import static io.dpone.publication.TwinPublications.source;
import static io.dpone.publication.TwinPublications.tables;
import static io.dpone.publication.TwinPublications.targetRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.Dpone;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.connect.ConnectionContext;
import io.dpone.report.ReportWriter;
import io.dpone.route.ProgressListener;
import io.dpone.route.RunReport;
import io.dpone.testing.twin.TwinCluster;
import io.dpone.testing.twin.TwinProcess;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Internal-replication cluster publications on two HTTP twins as the two replicas of a one-shard cluster with
 * {@code internal_replication} true (one embedded ZooKeeper holds KeeperMap, the distributed-DDL queue and the
 * twins' replication): admission, the fence, the sealed artifact, the {@code ReplicatedMergeTree} target and
 * candidate created {@code ON CLUSTER}, the artifact loaded once through member a with its deduplication token,
 * {@code SYSTEM SYNC REPLICA} on both and the READY barrier, the fenced {@code EXCHANGE ... ON CLUSTER},
 * reconciliation, the receipt and the exact cleanup (every dropped replicated table leaves ZooKeeper too). Member b
 * crashes before the DDL (while it replicates the load), its DDL worker stalls at the exchange, and it crashes after
 * running the exchange, before and after recording it; each run stops typed and the same run id finishes it once b
 * is back. What the twins' replication cannot show is in docs/testing.md.
 */
@io.dpone.testing.ProcessTest
class TwinInternalPublicationTest {
    private static final String CLUSTER = "twin_internal";
    private static final String A = TwinCluster.A;
    private static final String B = TwinCluster.B;
    private static TwinCluster cluster;
    private static CuratorFramework zk;
    private static TwinProcess a;
    private static TwinProcess b;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        cluster = TwinCluster.start(dir, CLUSTER, true);
        zk = cluster.zk();
        a = TwinProcess.member(dir.resolve("twin-a"), cluster.config(), A);
        b = TwinProcess.member(dir.resolve("twin-b"), cluster.config(), B);
    }

    @AfterAll
    static void stop() throws Exception {
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            if (t != null) {
                t.close();
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Each test starts with both twins up and no fault set (a failed test may have left b halted or stalled). */
    @BeforeEach
    void bothTwinsUp() throws Exception {
        if (b.awaitExit(Duration.ZERO)) {
            b = b.restart();
        }
        a.fault("clear");
        b.fault("clear");
    }

    @Test
    void aPublicationReachesTheReceiptInOneRunAndTheNextReplacesItsReplicatedTarget() throws Exception {
        String h2 = source();
        String db = targetDatabase();
        Path manifest = manifest(db);
        RunReport first = Dpone.run(manifest, "twin-internal-1", context(h2), ProgressListener.NONE,
            dir.resolve("work"));
        assertPublished(first, db, null, List.of(List.of("1", "a"), List.of("2", "b"), List.of("3", "c")));
        assertEquals("cluster_internal", first.publication().mode(), ReportWriter.json(first));
        try (Connection c = DriverManager.getConnection(h2, "sa", ""); Statement s = c.createStatement()) {
            s.execute("INSERT INTO dbo.items VALUES (4, N'd')");
        }
        // the target is now a ReplicatedMergeTree on both members: admission judges it fit for internal mode
        RunReport second = Dpone.run(manifest, "twin-internal-2", context(h2), ProgressListener.NONE,
            dir.resolve("work"));
        assertPublished(second, db, null,
            List.of(List.of("1", "a"), List.of("2", "b"), List.of("3", "c"), List.of("4", "d")));
        assertNotEquals(first.publication().receipt().generationId(), second.publication().receipt().generationId());
    }

    @Test
    void aMemberThatCrashesWhileReplicatingTheLoadHoldsItOnceAndTheSameRunIdRebuildsAndPublishes() throws Exception {
        String h2 = source();
        String db = targetDatabase();
        Path manifest = manifest(db);
        b.fault("replication_halt=after_apply");
        RunReport r = Dpone.run(manifest, "twin-internal-3", context(h2), ProgressListener.NONE, dir.resolve("work"));
        assertTrue(b.awaitExit(Duration.ofSeconds(30)), "b halted right after applying the loaded block");
        String json = ReportWriter.json(r);
        assertFalse(r.passed(), json);
        assertEquals(List.of("publication.member_unreachable"), codes(r), json);
        assertEquals("SEALED", r.publication().phase(), "staging did not finish: no READY record, no DDL");
        assertFalse(json.contains("127.0.0."), "no member address in the report");

        // restarted, b applies the block again from its log pointer; its candidate holds the generation once
        b = b.restart();
        for (List<String> t : tables(b, db)) {
            try (ClickHouseEndpoint ch = b.endpoint()) {
                ch.execute("SYSTEM SYNC REPLICA " + ClickHouseSql.table(db, t.get(0)));
            }
        }
        assertEquals(tables(a, db), tables(b, db), "b holds what a holds, no block twice");
        assertTrue(tables(b, db).contains(List.of("items", "0")), "the empty first target");
        assertEquals(2, tables(b, db).size(), "the target and the loaded candidate");
        assertEquals("3", tables(b, db).stream().filter(t -> !t.get(0).equals("items")).findFirst().orElseThrow()
            .get(1), "the candidate holds the three rows once");

        assertPublished(Dpone.run(manifest, "twin-internal-3", context(h2), ProgressListener.NONE,
            dir.resolve("work")), db, "SEALED", List.of(List.of("1", "a"), List.of("2", "b"), List.of("3", "c")));
    }

    @Test
    void aMemberWhoseDdlWorkerStallsAtTheExchangeHoldsTheRunAtTheRecordedDdlUntilItIsBack() throws Exception {
        String h2 = source();
        String db = targetDatabase();
        Path manifest = manifest(db);
        b.fault("ddl_stall=1&ddl_on=EXCHANGE");
        RunReport r = Dpone.run(manifest, "twin-internal-4", context(h2), ProgressListener.NONE, dir.resolve("work"));
        String json = ReportWriter.json(r);
        assertFalse(r.passed(), json);
        assertEquals(List.of("publication.ddl_pending"), codes(r), json);
        assertEquals("DDL_RECORDED", r.publication().phase(), "the creates, load, sync and barrier passed");
        assertEquals("3", targetRows(a, db), "a ran the exchange from the queue");
        assertEquals("0", targetRows(b, db), "b has not run it yet");

        b.kill();
        b = b.restart();
        assertPublished(Dpone.run(manifest, "twin-internal-4", context(h2), ProgressListener.NONE,
            dir.resolve("work")), db, "DDL_RECORDED", List.of(List.of("1", "a"), List.of("2", "b"), List.of("3", "c")));
    }

    @Test
    void aMemberThatCrashesAfterRunningTheExchangeRunsItTwiceAndReconciliationSwapsItBack() throws Exception {
        String h2 = source();
        String db = targetDatabase();
        Path manifest = manifest(db);
        haltedRun(manifest, "twin-internal-5", h2, "before_finished");

        // restarted, b finds the entry not recorded finished and runs the exchange again: its tables swap back
        b = b.restart();
        awaitFinished(db);
        assertEquals("0", targetRows(b, db), "b swapped the target back");
        assertPublished(Dpone.run(manifest, "twin-internal-5", context(h2), ProgressListener.NONE,
            dir.resolve("work")), db, "DDL_RECORDED", List.of(List.of("1", "a"), List.of("2", "b"), List.of("3", "c")));
    }

    @Test
    void aMemberLostAfterTheExchangeLeavesTheReceiptToTheSameRunIdWhichCleansUpExactly() throws Exception {
        String h2 = source();
        String db = targetDatabase();
        Path manifest = manifest(db);
        haltedRun(manifest, "twin-internal-6", h2, "after_finished");
        b = b.restart();
        assertEquals("3", targetRows(b, db), "b ran the exchange once");
        RunReport done = Dpone.run(manifest, "twin-internal-6", context(h2), ProgressListener.NONE,
            dir.resolve("work"));
        assertPublished(done, db, "DDL_RECORDED", List.of(List.of("1", "a"), List.of("2", "b"), List.of("3", "c")));

        // the same run id once more: the receipt stands, nothing is sent or dropped again
        RunReport again = Dpone.run(manifest, "twin-internal-6", context(h2), ProgressListener.NONE,
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
        b.fault("ddl_halt=" + halt + "&ddl_on=EXCHANGE");
        RunReport r = Dpone.run(manifest, runId, context(h2), ProgressListener.NONE, dir.resolve("work"));
        assertTrue(b.awaitExit(Duration.ofSeconds(30)), "b halted right after running the exchange (" + halt + ")");
        assertFalse(r.passed(), ReportWriter.json(r));
        assertEquals(List.of("publication.member_unreachable"), codes(r), ReportWriter.json(r));
        assertEquals("DDL_RECORDED", r.publication().phase());
    }

    /**
     * The run committed the receipt and cleaned up exactly: on both members only the target, a
     * {@code ReplicatedMergeTree} holding {@code rows}, and ZooKeeper holds a replication path for exactly the
     * replicated tables the members still have (every dropped candidate and predecessor left it), each with both
     * replicas.
     */
    private static void assertPublished(RunReport done, String db, String resumedFrom, List<List<String>> rows)
            throws Exception {
        String json = ReportWriter.json(done);
        assertTrue(done.passed(), json);
        assertEquals(List.of(), codes(done), json);
        assertEquals("CLEANED", done.publication().phase(), json);
        assertEquals(resumedFrom, done.publication().resumedFrom(), json);
        assertTrue(done.publication().committed() && done.publication().cleanupComplete(), json);
        assertNotNull(done.publication().receipt(), json);
        assertEquals(rows.size(), done.publication().receipt().artifact().rows());
        assertEquals(2, done.publication().receipt().members().size(), json);
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            assertEquals(List.of(List.of("items", Integer.toString(rows.size()))), tables(t, db),
                "published everywhere, nothing left over");
            try (ClickHouseEndpoint ch = t.endpoint()) {
                assertEquals(rows, ch.query("SELECT toString(id), name FROM " + ClickHouseSql.table(db, "items")
                    + " ORDER BY id"));
                assertEquals(List.of(List.of("ReplicatedMergeTree")), ch.query("SELECT engine FROM system.tables"
                    + " WHERE database = " + ClickHouseSql.literal(db) + " AND name = 'items'"));
            }
        }
        Set<String> replicated = new TreeSet<>();
        try (ClickHouseEndpoint ch = a.endpoint()) {
            ch.query("SELECT toString(uuid) FROM system.tables WHERE engine = 'ReplicatedMergeTree'")
                .forEach(r -> replicated.add(r.get(0)));
        }
        // the last replica's drop removes the table's path (.../<uuid>/1), not its empty parent
        Set<String> paths = new TreeSet<>();
        for (String uuid : zk.getChildren().forPath("/clickhouse/tables")) {
            if (zk.checkExists().forPath("/clickhouse/tables/" + uuid + "/1") != null) {
                paths.add(uuid);
            }
        }
        assertEquals(replicated, paths, "a replication path for every replicated table left, none for a dropped one");
        for (String uuid : replicated) {
            assertEquals(List.of(A, B), zk.getChildren().forPath("/clickhouse/tables/" + uuid + "/1/replicas")
                .stream().sorted().toList());
        }
        assertFalse(json.contains("127.0.0."), "no member address in the report");
    }

    private static void awaitFinished(String db) throws Exception {
        TwinPublications.awaitExchangeFinished(a, db);
    }

    private static String targetDatabase() throws Exception {
        return TwinPublications.targetDatabase("twin_internal", a, b);
    }

    private static Path manifest(String db) throws Exception {
        return TwinPublications.manifest(dir, db, "twin-internal", "ReplicatedMergeTree", CLUSTER, "internal");
    }

    private static ConnectionContext context(String h2) {
        return TwinPublications.context(h2, a, b, false);
    }
}
