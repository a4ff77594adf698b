package io.dpone.testing.twin;

import io.dpone.testing.ChildJvm;
import io.dpone.testing.ReadyLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ClickHouseTwin} in a child JVM for a test: its own data path and engine, a free loopback port, and a
 * password given through the environment as the launcher does. Closing it stops the process with SIGTERM.
 */
public final class TwinProcess implements AutoCloseable {
    public static final String USER = "dpone_twin";
    public static final String PASSWORD_ENV = "DPONE_TWIN_PASSWORD";

    private static TwinProcess shared;
    private static java.nio.file.Path sharedPasswordFile;

    private final Process process;
    private final String url;
    private final String password;

    private TwinProcess(Process process, String url, String password) {
        this.process = process;
        this.url = url;
        this.password = password;
    }

    /** Starts a twin on {@code dataDir} and waits (up to 120 s) until it serves. */
    public static TwinProcess start(Path dataDir) throws IOException {
        return start(dataDir, null);
    }

    /** As {@link #start(Path)}, with a server configuration file for the twin's engine (null for none). */
    public static TwinProcess start(Path dataDir, Path configFile) throws IOException {
        String password = "twin-" + Long.toHexString(System.nanoTime());
        ChildJvm twin = ChildJvm.main(ClickHouseTwin.class).jvm("-Xmx1g")
            .args("--port", "0", "--path", dataDir.toString(), "--user", USER, "--password-env", PASSWORD_ENV);
        if (configFile != null) {
            twin.args("--config-file", configFile.toString());
        }
        Files.createDirectories(dataDir);
        Process p = twin.env(PASSWORD_ENV, password).stderr(dataDir.resolve("twin.stderr")).start();
        String url = ReadyLine.await(p, "clickhouse-twin ready ", dataDir.resolve("twin.stderr"),
            "the ClickHouse twin");
        return new TwinProcess(p, url, password);
    }

    /** The twin this test JVM shares (started on first use, stopped when the JVM exits). */
    public static synchronized TwinProcess shared() {
        if (shared == null) {
            try {
                Path dir = Files.createTempDirectory("dpone-twin-shared-");
                shared = start(dir.resolve("data"));
                sharedPasswordFile = Files.writeString(dir.resolve("password"), shared.password());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            TwinProcess twin = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> twin.process.destroy(), "dpone-twin-stop"));
        }
        return shared;
    }

    /** A server ClickHouse alias for this twin, its password in a file (as {@code password_file}). */
    public io.dpone.connect.ContextEntry alias(String name) {
        try {
            Path file = sharedPasswordFile != null && this == shared ? sharedPasswordFile
                : Files.writeString(Files.createTempFile("dpone-twin-password", ""), password);
            return new io.dpone.connect.ContextEntry(name, io.dpone.connect.ConnectionType.CLICKHOUSE, url, USER,
                null, file.toString(), false, java.util.Map.of());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A {@code ServerClickHouseEndpoint} on this twin, as production opens one. */
    public io.dpone.clickhouse.ClickHouseEndpoint endpoint() {
        return io.dpone.clickhouse.ClickHouseEndpoints.open(io.dpone.connect.ConnectionContext.of(
            java.util.Map.of("twin", alias("twin")), false).resolve("twin", io.dpone.connect.ConnectionType.CLICKHOUSE,
            "twin"));
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return url;
    }

    public String password() {
        return password;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
