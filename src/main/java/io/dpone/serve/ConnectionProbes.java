package io.dpone.serve;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Collects the connection checks' values in the background: every {@link #INTERVAL} each check starts a probe on a
 * probe thread (at most one per alias at a time) or, when its probe hangs, is marked DOWN at its deadline
 * ({@link #DEADLINE} unless the serve configuration's {@code readiness.probe_timeout} says otherwise). Health
 * and metrics read the collected values, so an HTTP request never waits on a database.
 */
final class ConnectionProbes implements AutoCloseable {
    static final Duration INTERVAL = Duration.ofSeconds(5);
    /** How often deadlines are looked at and due probes started. */
    static final Duration TICK = Duration.ofMillis(250);
    /** How long one probe may take before its alias is DOWN. */
    static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionProbes.class);

    private final ScheduledExecutorService timer;
    private final ExecutorService workers;

    ConnectionProbes(List<ConnectionHealthCheck> checks) {
        AtomicInteger n = new AtomicInteger();
        timer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "dpone-connection-probes"));
        workers = Executors.newCachedThreadPool(r -> daemon(r, "dpone-connection-probe-" + n.incrementAndGet()));
        if (!checks.isEmpty()) {
            timer.scheduleWithFixedDelay(() -> {
                for (ConnectionHealthCheck c : checks) {
                    try {
                        c.refresh(workers, INTERVAL);
                    } catch (RuntimeException e) {
                        LOG.warn("connection probe of {} not started: {}", c.alias(), e.getClass().getSimpleName());
                    }
                }
            }, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        workers.shutdownNow();
    }
}
