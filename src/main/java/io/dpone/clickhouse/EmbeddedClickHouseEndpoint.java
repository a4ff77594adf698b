package io.dpone.clickhouse;

import io.dpone.clickhouse.chdb.ChdbConnection;
import io.dpone.clickhouse.chdb.ChdbException;
import io.dpone.clickhouse.chdb.ChdbInstaller;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedded ClickHouse (chDB). chDB allows one data path per process, so endpoints on the same path share
 * one engine session; opening a second path while the first is in use is refused with a clear error.
 */
public final class EmbeddedClickHouseEndpoint implements ClickHouseEndpoint {
    private static final Map<Path, Shared> OPEN = new HashMap<>();

    private final Shared shared;
    private boolean closed;

    private EmbeddedClickHouseEndpoint(Shared shared) {
        this.shared = shared;
    }

    /** Opens (or joins) the embedded engine whose data lives in {@code dataPath}. */
    public static EmbeddedClickHouseEndpoint open(Path dataPath) {
        return open(dataPath, null);
    }

    /**
     * Opens (or joins) the embedded engine on {@code dataPath}, starting it with the server configuration file
     * {@code configFile} (null for none; e.g. {@code <zookeeper>} for KeeperMap tables). The file is read only when
     * the engine starts: joining an engine that is already open keeps its configuration.
     */
    public static EmbeddedClickHouseEndpoint open(Path dataPath, Path configFile) {
        Path key = dataPath.toAbsolutePath().normalize();
        synchronized (OPEN) {
            Shared shared = OPEN.get(key);
            if (shared == null) {
                if (!OPEN.isEmpty()) {
                    throw new DponeException(BlockerCode.SINK_ENGINE_UNAVAILABLE, "clickhouse",
                        "the embedded ClickHouse is already open on another data directory in this process");
                }
                EngineDirectoryLock lock = EngineDirectoryLock.take(key); // before the engine sees the directory
                try {
                    shared = new Shared(key, connect(key, configFile), lock);
                } catch (RuntimeException e) {
                    lock.close();
                    throw e;
                }
                OPEN.put(key, shared);
            }
            shared.users++;
            return new EmbeddedClickHouseEndpoint(shared);
        }
    }

    /** How many endpoints share the engine open on {@code dataPath} (0 when it is not open). */
    public static int users(Path dataPath) {
        synchronized (OPEN) {
            Shared shared = OPEN.get(dataPath.toAbsolutePath().normalize());
            return shared == null ? 0 : shared.users;
        }
    }

    private static ChdbConnection connect(Path dataPath, Path configFile) {
        try {
            io.dpone.connect.PrivateFiles.ownDirectory(dataPath); // 0700: the engine writes its files 0644
            Path library = ChdbInstaller.forUserCache().ensureInstalled();
            ChdbConnection connection = ChdbConnection.open(library, dataPath, configFile);
            // session setting: NaN and infinities as strings, not null (a float must never read back as SQL NULL)
            connection.query("SET output_format_json_quote_denormals = 1", "TSV");
            return connection;
        } catch (ChdbException e) {
            throw new DponeException(BlockerCode.SINK_ENGINE_UNAVAILABLE, "clickhouse",
                "embedded ClickHouse is unavailable: " + e.getMessage());
        } catch (IOException e) {
            throw new DponeException(BlockerCode.SINK_ENGINE_UNAVAILABLE, "clickhouse",
                "embedded ClickHouse data directory cannot be created or is not private: " + e.getMessage());
        }
    }

    @Override
    public void execute(String sql) {
        run(sql, "TSV");
    }

    @Override
    public List<List<String>> query(String sql) {
        return CompactRows.parse(run(sql, "JSONCompactEachRow"));
    }

    @Override
    public List<List<String>> queryReadOnly(String sql) {
        return CompactRows.parse(run(ReadOnlySql.statement(sql), "JSONCompactEachRowWithNames"));
    }

    @Override
    public void insertFile(InsertFile insert) {
        String sql = "INSERT INTO " + insert.table() + " (" + insert.columns() + ") SELECT " + insert.selectList()
            + " FROM file(" + ClickHouseSql.literal(insert.file().toAbsolutePath().toString()) + ", "
            + ClickHouseSql.literal(insert.format()) + ", " + ClickHouseSql.literal(insert.structure()) + ")"
            + (insert.settings() == null || insert.settings().isBlank() ? "" : " SETTINGS " + insert.settings());
        execute(sql);
    }

    @Override
    public String kind() {
        return "embedded";
    }

    private byte[] run(String sql, String format) {
        if (closed) {
            throw new IllegalStateException("endpoint is closed");
        }
        try {
            return shared.connection.query(sql, format);
        } catch (ChdbException e) {
            throw new ClickHouseQueryException(e.getMessage());
        }
    }

    @Override
    public void close() {
        synchronized (OPEN) {
            if (closed) {
                return;
            }
            closed = true;
            if (--shared.users == 0) {
                OPEN.remove(shared.path);
                shared.connection.close();
                shared.lock.close();
            }
        }
    }

    private static final class Shared {
        final Path path;
        final ChdbConnection connection;
        final EngineDirectoryLock lock;
        int users;

        Shared(Path path, ChdbConnection connection, EngineDirectoryLock lock) {
            this.path = path;
            this.connection = connection;
            this.lock = lock;
        }
    }
}
