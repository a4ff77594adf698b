package io.dpone.serve;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Reports the routes directory in readiness: always UP (a refused file does not stop the pod serving the other
 * routes), with the refused files, line and reason in the details ({@code rejected_route_files}).
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
        String[] rejected = routes.getRejectedRouteFiles();
        builder.detail("loaded_route_files", routes.getLoadedRouteFiles());
        builder.detail("rejected_route_files", String.join("; ", rejected));
        if (rejected.length > 0) {
            builder.message(rejected.length + " route file(s) refused; the other routes keep serving");
        }
        builder.up();
    }
}
