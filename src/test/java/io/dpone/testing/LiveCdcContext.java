package io.dpone.testing;

import io.dpone.connect.ConnectionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The connection context the CDC CLI tests run under: {@code mssql-prod} (an H2 CDC emulation, user {@code sa}) and
 * {@code clickhouse-prod} (the process's embedded engine), written to {@code dir/context.yaml} and named by the
 * {@link ConnectionContext#PROPERTY} property; {@link #clear()} after each test.
 */
public final class LiveCdcContext {
    private LiveCdcContext() {
    }

    /** Writes the context for the H2 database at {@code h2Url} and makes it the process's. */
    public static Path useEmbedded(Path dir, String h2Url) throws IOException {
        Path context = Files.writeString(dir.resolve("context.yaml"), """
            connections:
              mssql-prod:
                type: mssql
                url: "%s"
                user: sa
              clickhouse-prod:
                type: clickhouse
                embedded: true
                options: {path: "%s"}
            """.formatted(h2Url, TestEngines.clickHousePath()));
        System.setProperty(ConnectionContext.PROPERTY, context.toString());
        return context;
    }

    public static void clear() {
        System.clearProperty(ConnectionContext.PROPERTY);
    }
}
