package io.dpone.testing.twin;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One member twin's replication queue, as a replica's {@code ReplicatedMergeTreeQueue}: for each of its replicated
 * tables it reads the log from its own {@code log_pointer}, fetches every block another replica inserted
 * ({@link TwinBlockFetch}) and inserts it into the local table (found by UUID: the name may have changed), then
 * advances its pointer; its own blocks are already there. A block applied and not yet recorded (a crash, or the
 * {@code replication_halt} fault) is applied again after a restart, where the table's local deduplication window
 * makes it a no-op. On start it finishes the drop of a registered table that is no longer on the engine and marks
 * its replicas active again.
 */
final class TwinReplicationWorker implements Runnable {
    private static final long POLL_MILLIS = 50;

    private final TwinReplication replication;
    private final TwinFaults faults;
    private boolean recovered;

    TwinReplicationWorker(TwinReplication replication, TwinFaults faults) {
        this.replication = replication;
        this.faults = faults;
    }

    /** Starts the worker on a daemon thread. */
    void start() {
        Thread t = new Thread(this, "clickhouse-twin-replication");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void run() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                if (!recovered) {
                    recover();
                    recovered = true;
                }
                if (!faults.replicationStalled()) {
                    for (TwinReplicatedTables.Replica r : replication.tables().all()) {
                        catchUp(r);
                    }
                }
                Thread.sleep(POLL_MILLIS); // the queue's poll period, as a replica's log watch and queue loop
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                System.err.println("clickhouse-twin: the replication worker failed a round: " + e);
            }
        }
    }

    private void recover() throws Exception {
        for (TwinReplicatedTables.Replica r : replication.tables().all()) {
            if (replication.catalog().nameOf(r.uuid()).isEmpty()) {
                replication.forget(r);
            } else {
                replication.log().activate(r.zkPath(), r.name(), replication.url());
            }
        }
    }

    private void catchUp(TwinReplicatedTables.Replica r) throws Exception {
        TwinReplicaLog log = replication.log();
        long pointer = log.pointer(r.zkPath(), r.name());
        if (pointer < 0) {
            return;
        }
        for (TwinReplicaLog.Entry e : log.entriesFrom(r.zkPath(), pointer)) {
            if (faults.replicationStalled()) {
                return;
            }
            if (!e.origin().equals(r.name())) {
                Path block = replication.tables().block(r.uuid(), e.block());
                if (!Files.isRegularFile(block) && !TwinBlockFetch.fetch(log.hosts(r.zkPath()), e.origin(), r.name(),
                        r.uuid(), e.block(), replication.tables().spool(r.uuid()), block)) {
                    return; // no replica serves it now: the next round tries again
                }
                if (!apply(r, e, block)) {
                    return;
                }
            } else if (!log.advance(r.zkPath(), r.name(), e.index() + 1)) {
                return;
            }
        }
    }

    /** Inserts a fetched block and advances the pointer past it; false when the table was dropped meanwhile. */
    private boolean apply(TwinReplicatedTables.Replica r, TwinReplicaLog.Entry e, Path block) throws Exception {
        synchronized (replication.lock()) {
            if (replication.tables().get(r.uuid()).isEmpty()) {
                return false;
            }
            Optional<String> name = replication.catalog().qualifiedNameOf(r.uuid());
            if (name.isEmpty()) {
                return false;
            }
            try (InputStream in = Files.newInputStream(block)) {
                replication.engine().insert(request(e.settings()), e.before() + name.get() + e.after(), in);
            }
            if (faults.replicationHalt()) {
                Runtime.getRuntime().halt(137); // the crash the test asked for: applied, not recorded
            }
            return replication.log().advance(r.zkPath(), r.name(), e.index() + 1);
        }
    }

    /** The block's insert runs with the origin's query settings in the default database. */
    private static TwinRequest request(Map<String, String> settings) {
        Map<String, String> s = new LinkedHashMap<>(settings == null ? Map.of() : settings);
        s.remove("readonly");
        return new TwinRequest("", "", "default", "TabSeparated", null, false, false, null, s);
    }
}
