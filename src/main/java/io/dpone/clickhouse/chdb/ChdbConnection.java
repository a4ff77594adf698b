package io.dpone.clickhouse.chdb;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One chDB connection on one data path. Queries on one connection are serialized (chDB requires it); open
 * several connections on the same path for parallel queries. Every connect restores the JVM's signal handlers.
 */
public final class ChdbConnection implements AutoCloseable {
    private static final Object LOAD_LOCK = new Object();
    private static volatile ChdbNative nativeApi;
    private static volatile Path loadedFrom;
    private static SignalHandlerGuard jvmHandlers;
    /**
     * Connections still open at JVM exit are closed by a shutdown hook: chDB's static destructors crash the VM
     * thread (SIGSEGV in libchdb) when a connection is still open while the process exits.
     */
    private static final java.util.Set<ChdbConnection> OPEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final Pointer connectionHandle;
    private final Pointer connection;
    private boolean closed;

    private ChdbConnection(Pointer connectionHandle) {
        this.connectionHandle = connectionHandle;
        this.connection = connectionHandle.getPointer(0);
    }

    /** Opens a connection to the engine in {@code library} with its data in {@code dataPath}. */
    public static ChdbConnection open(Path library, Path dataPath) {
        return open(library, dataPath, null);
    }

    /**
     * As {@link #open(Path, Path)}, with a server configuration file (e.g. {@code <zookeeper>} and
     * {@code <keeper_map_path_prefix>} for KeeperMap tables); null for none. chDB reads it when the engine starts,
     * so it only takes effect for the first connection on the process's data path.
     */
    public static ChdbConnection open(Path library, Path dataPath, Path configFile) {
        ChdbNative api = load(library);
        List<String> args = new ArrayList<>();
        args.add("clickhouse");
        if (configFile != null) {
            args.add("--config-file=" + configFile.toAbsolutePath());
        }
        args.add("--path=" + dataPath.toAbsolutePath());
        args.add("--query_profiler_real_time_period_ns=0");
        args.add("--query_profiler_cpu_time_period_ns=0");
        Pointer handle;
        synchronized (LOAD_LOCK) {
            try {
                handle = api.chdb_connect(args.size(), args.toArray(new String[0]));
            } finally {
                jvmHandlers.restore();
            }
        }
        if (handle == null || handle.getPointer(0) == null) {
            throw new ChdbException("embedded ClickHouse refused to open its data directory");
        }
        ChdbConnection connection = new ChdbConnection(handle);
        OPEN.add(connection);
        return connection;
    }

    private static ChdbNative load(Path library) {
        synchronized (LOAD_LOCK) {
            if (nativeApi != null) {
                if (!library.toAbsolutePath().equals(loadedFrom)) {
                    throw new ChdbException("a different embedded ClickHouse library is already loaded");
                }
                return nativeApi;
            }
            jvmHandlers = SignalHandlerGuard.capture();
            try {
                NativeLibrary.getInstance(library.toAbsolutePath().toString());
                nativeApi = Native.load(library.toAbsolutePath().toString(), ChdbNative.class);
            } catch (UnsatisfiedLinkError e) {
                throw new ChdbException("embedded ClickHouse library cannot be loaded: " + e.getMessage());
            } finally {
                jvmHandlers.restore();
            }
            loadedFrom = library.toAbsolutePath();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(ChdbConnection::close),
                "dpone-chdb-close"));
            return nativeApi;
        }
    }

    /** Runs {@code sql} and returns the result in {@code format}; throws {@link ChdbException} on a query error. */
    public synchronized byte[] query(String sql, String format) {
        ensureOpen();
        byte[] q = sql.getBytes(StandardCharsets.UTF_8);
        byte[] f = format.getBytes(StandardCharsets.US_ASCII);
        Pointer result = nativeApi.chdb_query_n(connection, q, q.length, f, f.length);
        if (result == null) {
            throw new ChdbException("embedded ClickHouse returned no result");
        }
        try {
            Pointer error = nativeApi.chdb_result_error(result);
            if (error != null) {
                String message = error.getString(0, StandardCharsets.UTF_8.name());
                if (!message.isEmpty()) {
                    throw new ChdbException(message);
                }
            }
            long length = nativeApi.chdb_result_length(result);
            if (length == 0) {
                return new byte[0];
            }
            if (length > Integer.MAX_VALUE - 16) {
                throw new ChdbException("embedded ClickHouse result exceeds 2 GiB; stream it to a file instead");
            }
            Pointer buffer = nativeApi.chdb_result_buffer(result);
            return buffer.getByteArray(0, (int) length);
        } finally {
            nativeApi.chdb_destroy_query_result(result);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new ChdbException("embedded ClickHouse connection is closed");
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            OPEN.remove(this);
            nativeApi.chdb_close_conn(connectionHandle);
        }
    }
}
