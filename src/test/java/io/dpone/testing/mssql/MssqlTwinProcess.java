package io.dpone.testing.mssql;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A {@link MssqlTwin} in a child JVM for a test, as {@code dev/mssql-twin} starts it: its own data directory, a free
 * loopback port, one SQL login whose password travels through the environment. Closing it stops the process with
 * SIGTERM. Its CPU is its own process's, apart from the test's.
 */
public final class MssqlTwinProcess implements AutoCloseable {
    public static final String USER = "dpone_twin";
    public static final String PASSWORD_ENV = "DPONE_MSSQL_TWIN_PASSWORD";
    public static final String DATABASE = "dpone_src";

    private final Process process;
    private final int port;
    private final String password;
    private final Path passwordFile;

    private MssqlTwinProcess(Process process, int port, String password, Path passwordFile) {
        this.process = process;
        this.port = port;
        this.password = password;
        this.passwordFile = passwordFile;
    }

    /** Starts a twin on {@code dataDir} with the database {@link #DATABASE} and waits (up to 120 s) until it serves. */
    public static MssqlTwinProcess start(Path dataDir) throws IOException {
        String password = "Twin-" + Long.toHexString(System.nanoTime()) + "!";
        Files.createDirectories(dataDir);
        Process p = io.dpone.testing.ChildJvm.main(MssqlTwin.class).jvm("-Xmx1g").args("--port", "0", "--path",
            dataDir.toString(), "--user", USER, "--password-env", PASSWORD_ENV, "--database", DATABASE)
            .env(PASSWORD_ENV, password).stderr(dataDir.resolve("twin.stderr")).start();
        String port = io.dpone.testing.ReadyLine.await(p, "mssql-twin ready 127.0.0.1:",
            dataDir.resolve("twin.stderr"), "the SQL Server twin");
        return new MssqlTwinProcess(p, Integer.parseInt(port), password,
            Files.writeString(dataDir.resolve("login.password"), password));
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** The URL a user would write for this twin, without credentials. */
    public String url() {
        return "jdbc:sqlserver://127.0.0.1:" + port + ";databaseName=" + DATABASE + ";encrypt=false";
    }

    /** The URL with TLS inside the handshake, mssql-jdbc's default since 12. */
    public String tlsUrl() {
        return "jdbc:sqlserver://127.0.0.1:" + port + ";databaseName=" + DATABASE
            + ";encrypt=true;trustServerCertificate=true";
    }

    /** The login's password in a file next to the twin's data, for a {@code password_file} alias. */
    public Path passwordFile() {
        return passwordFile;
    }

    public String password() {
        return password;
    }

    public java.sql.Connection connect() throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection(url(), USER, password);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
