package io.dpone.testing.mssql.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The twin's engine: SQL Server databases as H2 files under one directory ({@code <name>.mv.db}); {@code master}
 * always exists. Sessions run concurrently, one thread each.
 */
public final class H2Backend implements AutoCloseable {
    private static final TwinFaults FAULTS = new TwinFaults();
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    private static final String SUFFIX = ".mv.db";

    private final Path dir;
    private final Map<String, TwinDatabase> open = new ConcurrentHashMap<>();

    public H2Backend(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (find("master") == null) {
            createDatabase("master");
        }
    }

    /** The faults armed by {@code sp_twin_fault} (process-wide, as the twin is one server). */
    public static TwinFaults faults() {
        return FAULTS;
    }

    /** {@code CREATE DATABASE name}. */
    public void createDatabase(String name) {
        try {
            create(name);
        } catch (SqlServerError e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    void create(String name) throws SqlServerError {
        if (!NAME.matcher(name).matches()) {
            throw new SqlServerError(102, "Incorrect syntax near '" + name + "'.");
        }
        synchronized (open) {
            if (find(name) != null) {
                throw new SqlServerError(1801, "Database '" + name + "' already exists. Choose a different database "
                    + "name.");
            }
            database(name, dir.resolve(name));
        }
    }

    public TwinSession open(String database) throws SqlServerError {
        return new EngineSession(this, database(database));
    }

    TwinDatabase database(String name) throws SqlServerError {
        String actual = name == null ? null : find(name);
        if (actual == null) {
            throw new SqlServerError(4060, 1, 11, "Cannot open database \"" + name + "\" requested by the login. "
                + "The login failed.");
        }
        return database(actual, dir.resolve(actual));
    }

    private TwinDatabase database(String name, Path file) {
        return open.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> {
            try {
                return new TwinDatabase(name, file);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot open twin database " + name, e);
            }
        });
    }

    /** The database's name as created (names are case-insensitive), or null. */
    private String find(String name) {
        if (!NAME.matcher(name).matches()) {
            return null;
        }
        TwinDatabase db = open.get(name.toLowerCase(Locale.ROOT));
        if (db != null) {
            return db.name;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(SUFFIX))
                .map(f -> f.substring(0, f.length() - SUFFIX.length())).filter(f -> f.equalsIgnoreCase(name))
                .findFirst().orElse(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        open.values().forEach(TwinDatabase::close);
        open.clear();
    }
}
