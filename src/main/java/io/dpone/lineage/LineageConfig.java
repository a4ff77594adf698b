package io.dpone.lineage;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where serve sends its OpenLineage events ({@code lineage:} in the serve configuration; off when absent): an HTTP
 * endpoint ({@code url}, events POSTed to {@code url + endpoint}, an API key from the environment variable
 * {@code apiKeyEnv} as a bearer token when set) or a file ({@code file}, one JSON event per line, for tests and for a
 * collector that tails it). {@code namespace} is the jobs' namespace.
 */
public record LineageConfig(URI url, String endpoint, String apiKeyEnv, Path file, String namespace,
                            Duration timeout) {
    public static final String DEFAULT_NAMESPACE = "dpone";
    public static final String DEFAULT_ENDPOINT = "api/v1/lineage";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    public LineageConfig {
        endpoint = endpoint == null ? DEFAULT_ENDPOINT : endpoint;
        namespace = namespace == null ? DEFAULT_NAMESPACE : namespace;
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    }

    /** File transport only (tests). */
    public static LineageConfig file(Path file) {
        return new LineageConfig(null, null, null, file, null, null);
    }
}
