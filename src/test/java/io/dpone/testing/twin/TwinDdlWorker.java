package io.dpone.testing.twin;

import io.dpone.clickhouse.chdb.ChdbException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One member twin's DDL worker, as ClickHouse's {@code DDLWorker}: it watches the shared queue and runs, in queue
 * order, every entry naming this host that it has not recorded finished (through the twin's statements, so a
 * replicated {@code CREATE} or {@code DROP} registers or removes the replica, see {@link TwinReplication}), then
 * records its result. Whether a host
 * ran an entry is known only from {@code finished/<host>}: a twin that stops between running an entry and recording
 * it (a crash, or the {@code ddl_halt} fault) runs the entry again when it starts, as a server does.
 */
final class TwinDdlWorker implements Runnable {
    private static final long POLL_MILLIS = 50;

    private final TwinDdlQueue queue;
    private final TwinReplication statements;
    private final TwinFaults faults;
    private final String host;
    private final Set<String> done = new HashSet<>();

    TwinDdlWorker(TwinDdlQueue queue, TwinReplication statements, TwinFaults faults, String host) {
        this.queue = queue;
        this.statements = statements;
        this.faults = faults;
        this.host = host;
    }

    /** Starts the worker on a daemon thread. */
    void start() {
        Thread t = new Thread(this, "clickhouse-twin-ddl-worker");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void run() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                for (String name : queue.names()) {
                    if (!done.contains(name) && !runOnce(name)) {
                        break; // stalled at this entry: the later ones wait behind it, in queue order
                    }
                }
                Thread.sleep(POLL_MILLIS); // the queue's poll period, as DDLWorker's watch-and-poll
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                System.err.println("clickhouse-twin: the DDL worker failed a round: " + e);
            }
        }
    }

    /** Runs the entry unless it is not for this host or already finished; false when the worker is stalled at it. */
    private boolean runOnce(String name) throws Exception {
        TwinDdlQueue.Entry entry = queue.entry(name).orElse(null);
        if (entry == null || !entry.hosts().contains(host) || queue.finished(name).containsKey(host)) {
            done.add(name);
            return true;
        }
        if (faults.ddlStalled(entry.query())) {
            return false;
        }
        queue.markActive(name, host);
        TwinDdlQueue.Finished result;
        try {
            statements.run(request(entry.settings()), entry.query(), "TabSeparated");
            result = new TwinDdlQueue.Finished(0, "", System.currentTimeMillis() / 1000);
        } catch (ChdbException e) {
            result = new TwinDdlQueue.Finished(TwinErrors.code(e.getMessage()), e.getMessage(),
                System.currentTimeMillis() / 1000);
        }
        if (faults.ddlHalt("before_finished", entry.query())) {
            Runtime.getRuntime().halt(137); // the crash the test asked for: ran, not recorded
        }
        queue.markFinished(name, host, result);
        if (faults.ddlHalt("after_finished", entry.query())) {
            Runtime.getRuntime().halt(137);
        }
        done.add(name);
        return true;
    }

    /** The entry's statement runs with the initiator's query settings in the default database. */
    private static TwinRequest request(Map<String, String> settings) {
        Map<String, String> s = new java.util.LinkedHashMap<>(settings);
        s.remove("readonly");
        return new TwinRequest("", "", "default", "TabSeparated", null, false, false, null, s);
    }
}
