package io.dpone.testing.twin;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The distributed-DDL queue the twins share, in ZooKeeper at ClickHouse's default {@code distributed_ddl.path}: one
 * sequential {@code query-N} node per statement (its text without {@code ON CLUSTER}, the hosts, the initiator's
 * query settings, the creation time), {@code active/<host:port>} (ephemeral) while a host runs it and
 * {@code finished/<host:port>} (its exception code and text) once it ran. The node contents are the twin's own JSON,
 * not ClickHouse's entry format: only twins read them. Entries are never removed (no {@code task_max_lifetime}).
 */
final class TwinDdlQueue implements AutoCloseable {
    static final String ROOT = "/clickhouse/task_queue/ddl";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One statement; {@code name} is its node's name ({@code query-0000000000}). */
    record Entry(String name, String cluster, String query, List<String> hosts, String initiator,
                 Map<String, String> settings, long createTime) {
    }

    /** A host's result: ClickHouse's exception code (0: it ran) and text. */
    record Finished(int code, String message, long finishTime) {
    }

    private final CuratorFramework zk;

    TwinDdlQueue(String connect) throws InterruptedException {
        zk = CuratorFrameworkFactory.newClient(connect, 10_000, 5_000, new ExponentialBackoffRetry(100, 5));
        zk.start();
        if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new IllegalStateException("the twin's DDL queue cannot reach ZooKeeper");
        }
    }

    /** Queues a statement; returns its node name. */
    String add(String cluster, String query, List<String> hosts, String initiator, Map<String, String> settings)
            throws Exception {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("cluster", cluster);
        data.put("query", query);
        data.put("hosts", hosts);
        data.put("initiator", initiator);
        data.put("settings", settings);
        data.put("create_time", System.currentTimeMillis() / 1000);
        String path = zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
            .forPath(ROOT + "/query-", JSON.writeValueAsBytes(data));
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Every entry's name, oldest first. */
    List<String> names() throws Exception {
        if (zk.checkExists().forPath(ROOT) == null) {
            return List.of();
        }
        List<String> names = new ArrayList<>(zk.getChildren().forPath(ROOT));
        names.sort(null);
        return names;
    }

    Optional<Entry> entry(String name) throws Exception {
        try {
            Map<String, Object> d = JSON.readValue(zk.getData().forPath(ROOT + "/" + name), new TypeReference<>() {
            });
            @SuppressWarnings("unchecked")
            List<String> hosts = (List<String>) d.get("hosts");
            @SuppressWarnings("unchecked")
            Map<String, String> settings = (Map<String, String>) d.get("settings");
            return Optional.of(new Entry(name, (String) d.get("cluster"), (String) d.get("query"), hosts,
                (String) d.get("initiator"), settings, ((Number) d.get("create_time")).longValue()));
        } catch (KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    /** The hosts that recorded the entry finished, with their results. */
    Map<String, Finished> finished(String name) throws Exception {
        Map<String, Finished> out = new LinkedHashMap<>();
        for (String host : children(name + "/finished")) {
            try {
                out.put(host, JSON.readValue(zk.getData().forPath(ROOT + "/" + name + "/finished/" + host),
                    Finished.class));
            } catch (KeeperException.NoNodeException e) {
                // removed between the listing and the read
            }
        }
        return out;
    }

    /** The hosts running the entry now. */
    Set<String> active(String name) throws Exception {
        return new HashSet<>(children(name + "/active"));
    }

    void markActive(String name, String host) throws Exception {
        try {
            zk.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(ROOT + "/" + name + "/active/" + host);
        } catch (KeeperException.NodeExistsException e) {
            // this host's earlier session: it expires with that session
        }
    }

    void markFinished(String name, String host, Finished result) throws Exception {
        byte[] data = JSON.writeValueAsBytes(result);
        try {
            zk.create().creatingParentsIfNeeded().forPath(ROOT + "/" + name + "/finished/" + host, data);
        } catch (KeeperException.NodeExistsException e) {
            zk.setData().forPath(ROOT + "/" + name + "/finished/" + host, data);
        }
        try {
            zk.delete().forPath(ROOT + "/" + name + "/active/" + host);
        } catch (KeeperException.NoNodeException e) {
            // never marked, or its session expired
        }
    }

    private List<String> children(String relative) throws Exception {
        try {
            return zk.getChildren().forPath(ROOT + "/" + relative);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    @Override
    public void close() {
        zk.close();
    }
}
