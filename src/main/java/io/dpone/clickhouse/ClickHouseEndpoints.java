package io.dpone.clickhouse;

import io.dpone.connect.ConnectionSpec;
import java.nio.file.Path;

/** Opens the {@link ClickHouseEndpoint} a resolved connection alias names: the embedded engine or a server. */
public final class ClickHouseEndpoints {
    private ClickHouseEndpoints() {
    }

    /**
     * An embedded alias opens chDB on {@code options.path} (default
     * {@code ${user.home}/.cache/dpone/embedded-clickhouse}); any other alias opens a server endpoint over HTTP.
     */
    public static ClickHouseEndpoint open(ConnectionSpec spec) {
        if (spec.embedded()) {
            String path = spec.option("path", null);
            return EmbeddedClickHouseEndpoint.open(
                path == null || path.isBlank() ? defaultEmbeddedPath() : Path.of(path));
        }
        return ServerClickHouseEndpoint.open(spec);
    }

    /** Where the embedded engine keeps its data when the alias names no {@code path}. */
    public static Path defaultEmbeddedPath() {
        return Path.of(System.getProperty("user.home"), ".cache", "dpone", "embedded-clickhouse");
    }
}
