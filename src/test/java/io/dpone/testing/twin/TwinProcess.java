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
    private final java.util.List<String> startArgs;
    private final Path dataDir;

    private TwinProcess(Process process, String url, String password, java.util.List<String> startArgs, Path dataDir) {
        this.process = process;
        this.url = url;
        this.password = password;
        this.startArgs = startArgs;
        this.dataDir = dataDir;
    }

    /** Starts a twin on {@code dataDir} and waits (up to 120 s) until it serves. */
    public static TwinProcess start(Path dataDir) throws IOException {
        return start(dataDir, null);
    }

    /** As {@link #start(Path)}, with a server configuration file for the twin's engine (null for none). */
    public static TwinProcess start(Path dataDir, Path configFile) throws IOException {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--port", "0"));
        if (configFile != null) {
            args.addAll(java.util.List.of("--config-file", configFile.toString()));
        }
        return start(dataDir, args, "twin-" + Long.toHexString(System.nanoTime()));
    }

    /**
     * A member twin of the clusters {@code configFile} defines: {@code ddlHost} ({@code host:port}) is its replica
     * there, whose distributed-DDL queue entries it runs and whose name its {@code Replicated*MergeTree} replicas
     * take. It keeps its port across {@link #restart()}.
     */
    public static TwinProcess member(Path dataDir, Path configFile, String ddlHost) throws IOException {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        return start(dataDir, java.util.List.of("--port", Integer.toString(port), "--config-file",
            configFile.toString(), "--ddl-host", ddlHost), "twin-" + Long.toHexString(System.nanoTime()));
    }

    private static TwinProcess start(Path dataDir, java.util.List<String> args, String password) throws IOException {
        ChildJvm twin = ChildJvm.main(ClickHouseTwin.class).jvm("-Xmx1g").args(args.toArray(String[]::new))
            .args("--path", dataDir.toString(), "--user", USER, "--password-env", PASSWORD_ENV);
        Files.createDirectories(dataDir);
        Process p = twin.env(PASSWORD_ENV, password).stderr(dataDir.resolve("twin.stderr")).start();
        String url = ReadyLine.await(p, "clickhouse-twin ready ", dataDir.resolve("twin.stderr"),
            "the ClickHouse twin");
        return new TwinProcess(p, url, password, args, dataDir);
    }

    /** Stops this twin at once, as a crash does (SIGKILL), and waits for the process to end. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the twin did not stop after SIGKILL");
        }
    }

    /** Starts this twin again on its data, port, configuration and password (after {@link #kill()} or a halt). */
    public TwinProcess restart() throws IOException {
        return start(dataDir, startArgs, password);
    }

    /** Waits (bounded) for this twin's process to end by itself, as after a {@code ddl_halt} fault. */
    public boolean awaitExit(java.time.Duration bound) throws InterruptedException {
        return process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Asks the twin for a fault ({@code POST /twin/faults?query}, see {@code TwinFaults}). */
    public void fault(String query) throws IOException, InterruptedException {
        var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(url + "/twin/faults?" + query)).POST(java.net.http.HttpRequest.BodyPublishers
            .noBody()).build(), java.net.http.HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("the twin refused the fault " + query + ": HTTP " + response.statusCode());
        }
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
