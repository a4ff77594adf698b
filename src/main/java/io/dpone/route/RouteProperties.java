package io.dpone.route;

/** Exchange property names shared by the YAML routes and the processors. */
public final class RouteProperties {
    /** The {@link TransferRun} of the exchange (also its body outside the split). */
    public static final String RUN = "dponeRun";

    private RouteProperties() {
    }
}
