package io.dpone.testing.twin;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;

/**
 * What the two-member twin tests start before their members: an embedded ZooKeeper (the DDL queue, KeeperMap and the
 * replication emulation live there), a client of it, and the engines' configuration defining a one-shard cluster of
 * two replicas, {@link #A} and {@link #B} (each member twin is started with one of them as its {@code --ddl-host}:
 * {@code TwinProcess.member(dir, cluster.config(), TwinCluster.A)}). The members are the test's to start and stop;
 * {@link #close()} stops the client and ZooKeeper.
 */
public final class TwinCluster implements AutoCloseable {
    /** The first replica as the cluster definition advertises it. */
    public static final String A = "127.0.0.1:9000";
    /** The second replica. */
    public static final String B = "127.0.0.2:9000";

    private final TestingServer zooKeeper;
    private final CuratorFramework zk;
    private final Path config;

    private TwinCluster(TestingServer zooKeeper, CuratorFramework zk, Path config) {
        this.zooKeeper = zooKeeper;
        this.zk = zk;
        this.config = config;
    }

    /**
     * Starts ZooKeeper under {@code dir} and writes the configuration of {@code cluster} there, its shard's
     * {@code internal_replication} as given.
     */
    public static TwinCluster start(Path dir, String cluster, boolean internalReplication) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        TestingServer zooKeeper = new TestingServer(port, dir.resolve("zookeeper").toFile(), true);
        CuratorFramework zk = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
        zk.start();
        Path config = Files.writeString(dir.resolve("twin-config.xml"), "<clickhouse><zookeeper><node><host>127.0.0.1"
            + "</host><port>" + port + "</port></node><session_timeout_ms>10000</session_timeout_ms></zookeeper>"
            + "<keeper_map_path_prefix>/dpone_twin_keeper_map</keeper_map_path_prefix>"
            + "<remote_servers><" + cluster + "><shard><internal_replication>" + internalReplication
            + "</internal_replication>"
            + "<replica><host>127.0.0.1</host><port>9000</port></replica>"
            + "<replica><host>127.0.0.2</host><port>9000</port></replica></shard></" + cluster + ">"
            + "</remote_servers></clickhouse>");
        return new TwinCluster(zooKeeper, zk, config);
    }

    /** The engines' configuration file, for {@code TwinProcess.member}. */
    public Path config() {
        return config;
    }

    /** A started client of the cluster's ZooKeeper. */
    public CuratorFramework zk() {
        return zk;
    }

    @Override
    public void close() throws IOException {
        zk.close();
        zooKeeper.close();
    }
}
