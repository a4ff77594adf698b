package io.dpone.serve;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Holds readiness DOWN until {@link ServeRuntime#start} has finished (the command registers its SIGTERM path right
 * after it returns). The Camel context, and with it the management port and its health endpoint, is up before serve
 * adds its jobs, streams and certifications: without this a pod was reported ready, sent SIGTERM two seconds later,
 * and exited without its graceful stop (seen in the container checks, docs/operations.md).
 */
final class StartedHealthCheck extends AbstractHealthCheck {
    private volatile boolean started;

    StartedHealthCheck() {
        super("dpone", "serve-started");
    }

    void started() {
        started = true;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        if (started) {
            builder.up();
        } else {
            builder.message("serve is starting: its jobs, streams and stop path are not in place yet").down();
        }
    }
}
