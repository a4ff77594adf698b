package io.dpone.publication;

import static io.dpone.publication.TwinPublications.codes;
import static io.dpone.publication.TwinPublications.source;
import static io.dpone.publication.TwinPublications.tables;
import static io.dpone.publication.TwinPublications.targetRows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
    private static final String A = TwinCluster.A;
    private static final String B = TwinCluster.B;
    private static TwinCluster cluster;
    private static TwinProcess a;
    private static TwinProcess b;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        cluster = TwinCluster.start(dir, CLUSTER, false);
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

    private static void awaitFinished(String db) throws Exception {
        TwinPublications.awaitExchangeFinished(a, db);
    }

    private static String targetDatabase() throws Exception {
        return TwinPublications.targetDatabase("twin_pub", a, b);
    }

    private static Path manifest(String db) throws Exception {
        return TwinPublications.manifest(dir, db, "twin-cluster", "MergeTree", CLUSTER, "external");
    }

    private static ConnectionContext context(String h2, boolean swapped) {
        return TwinPublications.context(h2, a, b, swapped);
    }
}
