package io.dpone.testing.twin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.TestEngines;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The twins' replication emulation as a client of two member twins sees it: a {@code ReplicatedMergeTree} created
 * {@code ON CLUSTER} is one table with two replicas in ZooKeeper, an insert on either reaches the other after
 * {@code SYSTEM SYNC REPLICA}, a repeated deduplication token inserts nothing, a stuck replica's sync times out, a
 * replica that crashed after applying a block applies it once, and dropping the replicas removes them from ZooKeeper.
 */
@io.dpone.testing.ProcessTest
class TwinReplicationTest {
    private static final String CLUSTER = "twin_replicated";
    private static final String A = TwinCluster.A;
    private static final String B = TwinCluster.B;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
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

    @Test
    void aReplicatedTableHasTwoReplicasAndAnInsertReachesTheOtherOnceWhateverItsTokenIsSentAgain() throws Exception {
        String db = database();
        String uuid = createReplicated(db);
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            try (ClickHouseEndpoint ch = t.endpoint()) {
                assertEquals(List.of(List.of(uuid, "ReplicatedMergeTree")), ch.query("SELECT toString(uuid), engine"
                    + " FROM system.tables WHERE database = " + ClickHouseSql.literal(db)),
                    "one table on both twins, reported with the engine it was created with");
            }
        }
        String path = "/clickhouse/tables/" + uuid + "/1";
        assertEquals(List.of(A, B), children(path + "/replicas"), "both replicas registered at the default path");

        insert(a, db, "tok-1", "1\n2\n");
        sync(b, db);
        assertEquals("1,2", ids(b, db), "the block reached b");
        insert(a, db, "tok-1", "7\n8\n");
        insert(b, db, "tok-1", "9\n");
        sync(a, db);
        sync(b, db);
        assertEquals("1,2", ids(a, db), "a token already in blocks/ inserts nothing, on either replica");
        insert(b, db, "tok-2", "3\n");
        sync(a, db);
        assertEquals("1,2,3", ids(a, db), "b's block reached a");
        assertEquals(2, children(path + "/log").size(), "one log entry per block");
        assertEquals(2, children(path + "/blocks").size(), "one deduplication node per block");
        try (ClickHouseEndpoint ch = b.endpoint()) {
            assertEquals(List.of(List.of(B, "2", "0", "2", "2")), ch.query("SELECT replica_name, toString(log_pointer),"
                + " toString(queue_size), toString(total_replicas), toString(active_replicas) FROM system.replicas"
                + " WHERE database = " + ClickHouseSql.literal(db)));
        }

        HttpResponse<String> values = post(a, "INSERT INTO " + ClickHouseSql.table(db, "t") + " VALUES (5)", "", "");
        assertTrue(values.statusCode() >= 400 && values.body().contains("NOT_IMPLEMENTED"), values.body());
        post(a, "CREATE TABLE " + ClickHouseSql.table(db, "local") + " (id UInt32) ENGINE = MergeTree ORDER BY id", "",
            "");
        HttpResponse<String> notReplicated = post(a, "SYSTEM SYNC REPLICA " + ClickHouseSql.table(db, "local"), "", "");
        assertTrue(notReplicated.body().contains("is not replicated"), notReplicated.body());

        post(b, "DROP TABLE " + ClickHouseSql.table(db, "t") + " SYNC", "", "");
        assertEquals(List.of(A), children(path + "/replicas"), "b's drop removed its replica only");
        post(a, "DROP TABLE " + ClickHouseSql.table(db, "t") + " SYNC", "", "");
        assertNull(zk.checkExists().forPath("/clickhouse/tables/" + uuid + "/1"), "the last drop removed the table");
    }

    @Test
    void aStuckReplicaTimesOutItsSyncAndOneThatCrashedAfterApplyingABlockAppliesItOnce() throws Exception {
        String db = database();
        createReplicated(db);
        insert(a, db, "tok-1", "1\n");
        sync(b, db);
        b.fault("replication_stall=1");
        insert(a, db, "tok-2", "2\n");
        HttpResponse<String> timedOut = post(b, "SYSTEM SYNC REPLICA " + ClickHouseSql.table(db, "t"),
            "receive_timeout=1", "");
        assertTrue(timedOut.body().contains("TIMEOUT_EXCEEDED") && timedOut.body().contains("receive_timeout"),
            timedOut.body());
        try (ClickHouseEndpoint ch = b.endpoint()) {
            assertEquals(List.of(List.of("1")), ch.query("SELECT toString(queue_size) FROM system.replicas WHERE"
                + " database = " + ClickHouseSql.literal(db)), "b has not applied the second block");
        }
        b.fault("replication_stall=0");
        sync(b, db);
        assertEquals("1,2", ids(b, db));

        b.fault("replication_halt=after_apply");
        insert(a, db, "tok-3", "3\n");
        assertTrue(b.awaitExit(Duration.ofSeconds(30)), "b halted right after applying the block");
        b = b.restart();
        sync(b, db);
        assertEquals("1,2,3", ids(b, db), "applied again after the restart, held once");
    }

    private static String database() throws Exception {
        String db = TestEngines.newDatabase("twin_repl");
        for (TwinProcess t : new TwinProcess[] {a, b}) {
            try (ClickHouseEndpoint ch = t.endpoint()) {
                ch.execute("CREATE DATABASE " + ClickHouseSql.id(db) + " ENGINE = Atomic");
            }
        }
        return db;
    }

    /** {@code db.t} created ON CLUSTER through a; returns its UUID. */
    private static String createReplicated(String db) throws Exception {
        try (ClickHouseEndpoint ch = a.endpoint()) {
            ch.execute("CREATE TABLE " + ClickHouseSql.table(db, "t") + " ON CLUSTER " + CLUSTER
                + " (id UInt32) ENGINE = ReplicatedMergeTree ORDER BY id");
            return ch.query("SELECT toString(uuid) FROM system.tables WHERE database = " + ClickHouseSql.literal(db)
                + " AND name = 't'").get(0).get(0);
        }
    }

    private static void insert(TwinProcess t, String db, String token, String rows) throws Exception {
        HttpResponse<String> r = post(t, "INSERT INTO " + ClickHouseSql.table(db, "t") + " FORMAT TabSeparated",
            "insert_deduplication_token=" + token, rows);
        assertEquals(200, r.statusCode(), r.body());
    }

    private static void sync(TwinProcess t, String db) throws Exception {
        HttpResponse<String> r = post(t, "SYSTEM SYNC REPLICA " + ClickHouseSql.table(db, "t"), "receive_timeout=60",
            "");
        assertEquals(200, r.statusCode(), r.body());
    }

    private static String ids(TwinProcess t, String db) throws Exception {
        try (ClickHouseEndpoint ch = t.endpoint()) {
            return String.join(",", ch.query("SELECT toString(id) FROM " + ClickHouseSql.table(db, "t")
                + " ORDER BY id").stream().map(r -> r.get(0)).toList());
        }
    }

    private static List<String> children(String path) throws Exception {
        return zk.getChildren().forPath(path).stream().sorted().toList();
    }

    /** One request as a client sends it: the statement in {@code query}, settings as parameters, rows in the body. */
    private static HttpResponse<String> post(TwinProcess t, String query, String params, String body) throws Exception {
        String auth = Base64.getEncoder().encodeToString((TwinProcess.USER + ":" + t.password())
            .getBytes(StandardCharsets.UTF_8));
        URI uri = URI.create(t.url() + "/?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)
            + (params.isEmpty() ? "" : "&" + params));
        return HTTP.send(HttpRequest.newBuilder(uri).header("Authorization", "Basic " + auth)
            .timeout(Duration.ofSeconds(120)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
