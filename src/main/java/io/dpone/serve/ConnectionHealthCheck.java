package io.dpone.serve;

import io.dpone.connect.ConnectionContext;
import io.dpone.connect.Redactor;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * The state of one configured connection alias (source, ClickHouse or object storage), as last collected by
 * {@link ConnectionProbes}: a probe connects, runs the cheapest round trip ({@code SELECT 1}, a list under
 * {@code dpone-readiness/}) and closes, on a probe thread of its own and never on the HTTP server's event loop; a
 * probe that has not answered within its deadline makes the alias DOWN ("no answer within ..."), and no second probe
 * of the alias starts while it hangs. {@link #doCall} and the gauge only read the collected value. Details carry the
 * alias and type, never an endpoint or credential. Neither a liveness nor a readiness check: a database that is down
 * does not take the pod out of its Service (its metrics and JMX would vanish when they matter most); it shows in
 * {@code /observe/health} and as the gauge {@code dpone_connection_up{alias}}, and the job that needs it fails with
 * its own typed blocker.
 */
public final class ConnectionHealthCheck extends AbstractHealthCheck {
    private final ConnectionContext context;
    private final String alias;
    private final Duration deadline;
    private volatile String failure = "not probed yet";
    private long startedAt;
    private long finishedAt;
    private boolean probed;
    private boolean running;

    public ConnectionHealthCheck(ConnectionContext context, String alias, Duration deadline) {
        super("dpone", "connection:" + alias);
        this.context = context;
        this.alias = alias;
        this.deadline = deadline;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    public boolean isReadiness() {
        return false;
    }

    public String alias() {
        return alias;
    }

    /** Whether the alias answered its last round trip (a collected value: no I/O). */
    public boolean up() {
        return failure == null;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("alias", alias);
        context.entry(alias).ifPresent(e -> builder.detail("type", e.type().wireName()));
        String problem = failure;
        if (problem == null) {
            builder.up();
        } else {
            builder.message(problem).down();
        }
    }

    /**
     * Starts a probe on {@code workers} unless one is running or the last ended less than {@code interval} ago; a
     * running probe past its deadline marks the alias DOWN and keeps its thread (a blocked driver call cannot be taken
     * back) until it returns.
     */
    synchronized void refresh(ExecutorService workers, Duration interval) {
        long now = System.nanoTime();
        if (running) {
            if (now - startedAt > deadline.toNanos()) {
                failure = "connection alias '" + alias + "' did not answer within " + deadline.toMillis() + " ms";
            }
            return;
        }
        if (probed && now - finishedAt < interval.toNanos()) {
            return;
        }
        running = true;
        startedAt = now;
        workers.execute(() -> {
            String result;
            try {
                result = reach();
            } catch (Throwable t) {
                result = Redactor.global().describe(t);
            }
            finished(result, System.nanoTime());
        });
    }

    private synchronized void finished(String result, long now) {
        running = false;
        probed = true;
        finishedAt = now;
        failure = now - startedAt > deadline.toNanos() && result == null
            ? "connection alias '" + alias + "' answered after more than " + deadline.toMillis() + " ms" : result;
    }

    private String reach() {
        return ConnectionReach.reach(context, alias, "readiness");
    }
}
