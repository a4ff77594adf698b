package io.dpone.serve;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Reports the routes directory in readiness. UP while every file is loaded or refused typed (a refused file does
 * not stop the pod serving the other routes; the details name each refused file with its line, code and route ids,
 * never an endpoint URI, in {@code rejected_route_files}); DOWN while a file's loading threw an {@code Error}
 * ({@code serve.route_loader_failed}), since what that left behind is unknown. Reads the directory's published
 * snapshot: no I/O, no lock.
 */
public final class RouteFilesHealthCheck extends AbstractHealthCheck {
    private final RouteDirectory routes;

    public RouteFilesHealthCheck(RouteDirectory routes) {
        super("dpone", "route-files");
        this.routes = routes;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        String[] rejected = routes.rejectedSummaries();
        builder.detail("loaded_route_files", routes.getLoadedRouteFiles());
        builder.detail("rejected_route_files", String.join("; ", rejected));
        if (routes.loaderFailed()) {
            builder.message("a route file could not be loaded (serve.route_loader_failed); fix or remove it").down();
            return;
        }
        if (rejected.length > 0) {
            builder.message(rejected.length + " route file(s) refused; the other routes keep serving");
        }
        builder.up();
    }
}
