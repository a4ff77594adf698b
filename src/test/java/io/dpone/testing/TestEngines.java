package io.dpone.testing;

import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.EmbeddedClickHouseEndpoint;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.ContextEntry;
import io.dpone.connect.EmbeddedDefaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded engines shared by one test JVM. chDB allows one data path per process, so every test uses the same
 * path (wiped once per JVM) and keeps its state apart with its own database names; one endpoint stays open for
 * the JVM's lifetime so the engine is loaded once.
 */
public final class TestEngines {
    public static final String SOURCE = "mssql_test";
    public static final String CLICKHOUSE = "clickhouse_test";
    private static final AtomicInteger SEQ = new AtomicInteger();
    private static Path path;
    private static ClickHouseEndpoint keepAlive;
    /**
     * A one-shard, two-replica cluster ({@code internal_replication=false}) in the engine's config, so
     * {@code system.clusters} and Distributed tables have something to show; nothing listens on its addresses.
     */
    public static final String PUBLICATION_CLUSTER = "dpone_test_publication_cluster";
    /** Clusters of shapes a publication refuses: two one-replica shards, one member, two shards with mixed flags. */
    public static final String TWO_SHARDS_CLUSTER = "dpone_test_two_shards";
    public static final String ONE_MEMBER_CLUSTER = "dpone_test_one_member";
    public static final String MIXED_FLAGS_CLUSTER = "dpone_test_mixed_flags";
    private static final String SHAPES = "<" + TWO_SHARDS_CLUSTER + ">" + shard(false, "127.0.0.1") + shard(false, "127.0.0.2")
        + "</" + TWO_SHARDS_CLUSTER + "><" + ONE_MEMBER_CLUSTER + ">" + shard(false, "127.0.0.1") + "</" + ONE_MEMBER_CLUSTER
        + "><" + MIXED_FLAGS_CLUSTER + ">" + shard(true, "127.0.0.1", "127.0.0.2") + shard(false, "127.0.0.3") + "</"
        + MIXED_FLAGS_CLUSTER + ">";
    /** Non-default distributed-DDL queue settings, so a test can tell values read from the server from defaults. */
    public static final long TASK_MAX_LIFETIME_SECONDS = 1_209_600;
    public static final long MAX_TASKS_IN_QUEUE = 700;
    private static final String DISTRIBUTED_DDL = "<distributed_ddl><task_max_lifetime>" + TASK_MAX_LIFETIME_SECONDS
        + "</task_max_lifetime><max_tasks_in_queue>" + MAX_TASKS_IN_QUEUE + "</max_tasks_in_queue></distributed_ddl>";

    private static String shard(boolean internalReplication, String... hosts) {
        StringBuilder s = new StringBuilder("<shard><internal_replication>" + internalReplication + "</internal_replication>");
        for (String h : hosts) {
            s.append("<replica><host>").append(h).append("</host><port>9000</port></replica>");
        }
        return s.append("</shard>").toString();
    }
    private static int zooKeeperPort;
    private static org.apache.curator.test.TestingServer zooKeeper;

    private TestEngines() {
    }

    /** The shared embedded ClickHouse data path of this JVM. */
    public static synchronized Path clickHousePath() {
        if (path == null) {
            // per process: chDB locks its data path, and parallel test JVMs (or developers) must not collide
            Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
            removeStaleEngines(tmp);
            path = tmp.resolve("dpone-test-chdb-" + ProcessHandle.current().pid());
            deleteTree(path);
            keepAlive = EmbeddedClickHouseEndpoint.open(path, zooKeeperConfig(tmp));
        }
        return path;
    }

    /**
     * The engine's server config: {@link #PUBLICATION_CLUSTER} and a {@code <zookeeper>} on a loopback port reserved now, for KeeperMap tables. chDB
     * reads its config once per process and connects to ZooKeeper only when a KeeperMap table is used, so the
     * ZooKeeper itself starts lazily ({@link #zooKeeper()}); tests that never touch KeeperMap never start it.
     */
    private static Path zooKeeperConfig(Path tmp) {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            zooKeeperPort = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path config = tmp.resolve("dpone-test-chdb-" + ProcessHandle.current().pid() + ".config.xml");
        try {
            Files.writeString(config, "<clickhouse><zookeeper><node><host>127.0.0.1</host><port>" + zooKeeperPort
                + "</port></node><session_timeout_ms>10000</session_timeout_ms></zookeeper>"
                + "<keeper_map_path_prefix>/dpone_test_keeper_map</keeper_map_path_prefix>"
                + "<remote_servers><" + PUBLICATION_CLUSTER + "><shard><internal_replication>false"
                + "</internal_replication><replica><host>127.0.0.1</host><port>9000</port></replica>"
                + "<replica><host>127.0.0.2</host><port>9000</port></replica></shard></" + PUBLICATION_CLUSTER
                + ">" + SHAPES + "</remote_servers>" + DISTRIBUTED_DDL + "</clickhouse>");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        config.toFile().deleteOnExit();
        return config;
    }

    /** Starts (once per JVM) the embedded ZooKeeper the shared engine's KeeperMap tables use. */
    public static synchronized void zooKeeper() {
        clickHousePath();
        if (zooKeeper == null) {
            try {
                // its data lives inside the engine's path, so the stale-engine sweep removes it too
                zooKeeper = new org.apache.curator.test.TestingServer(zooKeeperPort,
                    path.resolve("test-zookeeper").toFile());
            } catch (Exception e) {
                throw new IllegalStateException("embedded ZooKeeper cannot start on its reserved port", e);
            }
            // never stopped: the engine's KeeperMap session must not lose its server before chDB closes at exit
        }
    }

    /** A new endpoint on the shared engine; close it when done (the engine stays up). */
    public static ClickHouseEndpoint clickhouse() {
        return EmbeddedClickHouseEndpoint.open(clickHousePath());
    }

    /** A fresh in-memory H2 database in SQL Server mode. */
    public static String newH2Url() {
        return "jdbc:h2:mem:src" + SEQ.incrementAndGet() + "_" + ProcessHandle.current().pid()
            + ";DB_CLOSE_DELAY=-1;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE"
            + ";LAZY_QUERY_EXECUTION=1";
    }

    /** A unique database name for one test. */
    public static String newDatabase(String stem) {
        return stem + "_" + SEQ.incrementAndGet();
    }

    /** Creates a new Atomic database for one test on {@code ch} and returns its name (the test drops it). */
    public static String newAtomicDatabase(ClickHouseEndpoint ch, String stem) {
        String db = newDatabase(stem);
        ch.execute("CREATE DATABASE " + ClickHouseSql.id(db) + " ENGINE = Atomic");
        return db;
    }

    /** A context mapping {@link #SOURCE} to {@code h2Url} and {@link #CLICKHOUSE} to the shared engine. */
    /** The test source alias ({@link #SOURCE}) on the H2 database {@code h2Url}. */
    public static ContextEntry sourceEntry(String h2Url) {
        return new ContextEntry(SOURCE, ConnectionType.MSSQL, h2Url, "sa", null, null, false, Map.of());
    }

    public static ConnectionContext context(String h2Url) {
        return ConnectionContext.of(Map.of(
            SOURCE, new ContextEntry(SOURCE, ConnectionType.MSSQL, h2Url, "sa", null, null, false, Map.of()),
            CLICKHOUSE, new ContextEntry(CLICKHOUSE, ConnectionType.CLICKHOUSE, null, null, null, null, true,
                Map.of("path", clickHousePath().toString()))), false);
    }

    /** Unused by most tests; here so the embedded default's H2 URL shape is exercised. */
    public static String embeddedH2(Path dir) {
        return EmbeddedDefaults.h2Url(dir);
    }

    private static void removeStaleEngines(Path tmp) {
        try (var dirs = Files.list(tmp)) {
            for (Path d : dirs.filter(p -> p.getFileName().toString().startsWith("dpone-test-chdb-")).toList()) {
                String pid = d.getFileName().toString().substring("dpone-test-chdb-".length());
                boolean alive = pid.chars().allMatch(Character::isDigit)
                    && ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
                if (!alive) {
                    deleteTree(d);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // another process may be cleaning too; stale directories only cost disk
        }
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
