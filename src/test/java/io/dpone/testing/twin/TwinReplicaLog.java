package io.dpone.testing.twin;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * A replicated table's state in ZooKeeper, laid out as ClickHouse's {@code ReplicatedMergeTree} lays it out under
 * the table's replication path: {@code log/log-N} (one sequential entry per inserted block), {@code blocks/<id>}
 * (the deduplication nodes: a block id already there is an insert already made), and per replica
 * {@code replicas/<name>/host} (where its twin serves blocks), {@code replicas/<name>/log_pointer} (the next log
 * entry it has to apply) and the ephemeral {@code replicas/<name>/is_active}. The node contents are the twin's own
 * JSON and numbers, not ClickHouse's formats: only twins read them. Log entries are never trimmed.
 */
final class TwinReplicaLog implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One inserted block: its log index, block id, origin replica, the insert statement around the table name (the
     * name is resolved again by UUID where it is applied: a table can be renamed or exchanged; the format is in the
     * text after it) and the query settings it ran with.
     */
    record Entry(long index, String block, String origin, String before, String after, Map<String, String> settings) {
    }

    private final CuratorFramework zk;

    TwinReplicaLog(String connect) throws InterruptedException {
        zk = CuratorFrameworkFactory.newClient(connect, 10_000, 5_000, new ExponentialBackoffRetry(100, 5));
        zk.start();
        if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new IllegalStateException("the twin's replication cannot reach ZooKeeper");
        }
    }

    /**
     * Adds replica {@code name} at {@code path} (the table's nodes created when it is the first), starting at log
     * entry 0 (it applies the whole log, as a new replica clones one that has), and marks it active.
     */
    void register(String path, String name, String url) throws Exception {
        for (String node : List.of(path + "/log", path + "/blocks", path + "/replicas")) {
            try {
                zk.create().creatingParentsIfNeeded().forPath(node);
            } catch (KeeperException.NodeExistsException e) {
                // another replica made it
            }
        }
        try {
            zk.create().forPath(path + "/replicas/" + name, new byte[0]);
            zk.create().forPath(path + "/replicas/" + name + "/log_pointer", bytes("0"));
        } catch (KeeperException.NodeExistsException e) {
            // an earlier attempt of this create registered it: keep its pointer
        }
        activate(path, name, url);
    }

    /** Records where this replica serves blocks and marks it active for this twin's session. */
    void activate(String path, String name, String url) throws Exception {
        String host = path + "/replicas/" + name + "/host";
        try {
            zk.create().forPath(host, bytes(url));
        } catch (KeeperException.NodeExistsException e) {
            zk.setData().forPath(host, bytes(url));
        }
        String active = path + "/replicas/" + name + "/is_active";
        try {
            zk.delete().forPath(active); // held by this twin's earlier session, which would expire later
        } catch (KeeperException.NoNodeException e) {
            // none
        }
        zk.create().withMode(CreateMode.EPHEMERAL).forPath(active);
    }

    boolean hasBlock(String path, String blockId) throws Exception {
        return zk.checkExists().forPath(path + "/blocks/" + blockId) != null;
    }

    /**
     * Commits an inserted block in one ZooKeeper transaction, as a replica commits a part: its deduplication node
     * and its log entry. False when the block id is already there (a concurrent insert of the same block won).
     */
    boolean commit(String path, String blockId, Entry entry) throws Exception {
        try {
            zk.transaction().forOperations(
                zk.transactionOp().create().forPath(path + "/blocks/" + blockId, bytes(entry.origin())),
                zk.transactionOp().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(path + "/log/log-", JSON.writeValueAsBytes(entry)));
            return true;
        } catch (KeeperException.NodeExistsException e) {
            return false;
        }
    }

    /** The log entries from index {@code from} on, in order. */
    List<Entry> entriesFrom(String path, long from) throws Exception {
        List<Entry> out = new ArrayList<>();
        for (String node : logNodes(path)) {
            long index = index(node);
            if (index < from) {
                continue;
            }
            Entry e = JSON.readValue(zk.getData().forPath(path + "/log/" + node), Entry.class);
            out.add(new Entry(index, e.block(), e.origin(), e.before(), e.after(), e.settings()));
        }
        return out;
    }

    /** One past the newest log entry's index (0 for an empty log): what a replica has applied once in sync. */
    long head(String path) throws Exception {
        long head = 0;
        for (String node : logNodes(path)) {
            head = Math.max(head, index(node) + 1);
        }
        return head;
    }

    /** The replica's log pointer, or -1 when it is not (or no longer) a replica. */
    long pointer(String path, String name) throws Exception {
        try {
            return Long.parseLong(new String(zk.getData().forPath(path + "/replicas/" + name + "/log_pointer"),
                StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException e) {
            return -1;
        }
    }

    /** Moves the replica's log pointer; false when the replica was removed meanwhile (never re-creates it). */
    boolean advance(String path, String name, long pointer) throws Exception {
        try {
            zk.setData().forPath(path + "/replicas/" + name + "/log_pointer", bytes(Long.toString(pointer)));
            return true;
        } catch (KeeperException.NoNodeException e) {
            return false;
        }
    }

    /** Every replica of the table with where it serves blocks (empty text when it has not said). */
    Map<String, String> hosts(String path) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (String r : children(path + "/replicas")) {
            try {
                out.put(r, new String(zk.getData().forPath(path + "/replicas/" + r + "/host"), StandardCharsets.UTF_8));
            } catch (KeeperException.NoNodeException e) {
                out.put(r, "");
            }
        }
        return out;
    }

    boolean active(String path, String name) throws Exception {
        return zk.checkExists().forPath(path + "/replicas/" + name + "/is_active") != null;
    }

    /**
     * Removes replica {@code name}, as {@code DROP TABLE} of a replica does; the last replica's drop removes the
     * table's whole path.
     */
    void removeReplica(String path, String name) throws Exception {
        try {
            zk.delete().deletingChildrenIfNeeded().forPath(path + "/replicas/" + name);
        } catch (KeeperException.NoNodeException e) {
            // removed already
        }
        if (children(path + "/replicas").isEmpty()) {
            try {
                zk.delete().deletingChildrenIfNeeded().forPath(path);
            } catch (KeeperException.NoNodeException e) {
                // removed already
            }
        }
    }

    private List<String> logNodes(String path) throws Exception {
        List<String> nodes = new ArrayList<>(children(path + "/log"));
        nodes.sort(null);
        return nodes;
    }

    private List<String> children(String path) throws Exception {
        try {
            return zk.getChildren().forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
    }

    private static long index(String node) {
        return Long.parseLong(node.substring(node.lastIndexOf('-') + 1));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        zk.close();
    }
}
