package io.dpone.route;

/** Exchange property names shared by the YAML routes and the processors. */
public final class RouteProperties {
    /** The {@link TransferRun} of the exchange (also its body outside the split). */
    public static final String RUN = "dponeRun";
    /** The run's chunks, an iterator the route's split goes over (set by {@code start_encoder}). */
    public static final String CHUNKS = "dponeChunks";
    /** Set by the route YAML: the chunk format name ({@code rowbinary}, {@code tsv}, {@code parquet}). */
    public static final String FORMAT = "dponeFormat";
    /** Set by the route YAML: {@code chunked} (default) or {@code single} (one file per table). */
    public static final String CHUNKING = "dponeChunking";

    private RouteProperties() {
    }
}
