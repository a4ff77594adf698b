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
 * several connections on the same path for parallel queries.
 *
 * <p>The engine never changes the JVM's signal dispositions: {@link SignalIsolation} turns its {@code sigaction}
 * calls into queries before its first call, and ClickHouse is told not to install handlers at all. Every connect is
 * still bracketed by a {@link SignalHandlerGuard}: a disposition the JVM depends on that changed anyway is put back
 * and the connect fails, rather than the process running on with a handler that hangs or kills it.
 */
public final class ChdbConnection implements AutoCloseable {
    private static final Object LOAD_LOCK = new Object();
    private static volatile ChdbNative nativeApi;
    private static volatile Path loadedFrom;
    /**
     * Connections still open at JVM exit are closed by a shutdown hook: chDB's static destructors crash the VM
     * thread (SIGSEGV in libchdb) when a connection is still open while the process exits.
     */
    private static final java.util.Set<ChdbConnection> OPEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final ChdbNative api;
    private final Pointer connectionHandle;
    private final Pointer connection;
    private boolean closed;

    private ChdbConnection(ChdbNative api, Pointer connectionHandle) {
        this.api = api;
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
        return connect(api, args);
    }

    /**
     * Connects through {@code api} with {@code args}, refusing (after closing it) a connection whose connect changed a
     * signal disposition the JVM depends on. Package-private for the test that fakes such an engine.
     */
    static ChdbConnection connect(ChdbNative api, List<String> args) {
        Pointer handle;
        List<String> changed;
        String engineSaid;
        synchronized (LOAD_LOCK) {
            SignalHandlerGuard before = SignalHandlerGuard.capture();
            try {
                // a failed start is printed by the engine on fd 2 (NativeStderr): caught, it becomes the typed error
                NativeStderr.Captured<Pointer> connected = NativeStderr.capture(
                    () -> api.chdb_connect(args.size(), args.toArray(new String[0])));
                handle = connected.value();
                engineSaid = NativeStderr.oneLine(connected.text());
            } finally {
                changed = SignalHandlerGuard.capture().changedSince(before);
                before.restore();
            }
        }
        if (handle == null || handle.getPointer(0) == null) {
            throw new ChdbException("embedded ClickHouse refused to open its data directory"
                + (engineSaid.isEmpty() ? "" : " (" + engineSaid + ")"));
        }
        if (!engineSaid.isEmpty()) {
            System.err.println("embedded ClickHouse: " + engineSaid); // through the process's redacting stderr
        }
        ChdbConnection connection = new ChdbConnection(api, handle);
        OPEN.add(connection);
        if (!changed.isEmpty()) {
            connection.close();
            throw signalsChanged("connect", changed);
        }
        return connection;
    }

    private static ChdbException signalsChanged(String when, List<String> changed) {
        return new ChdbException("the embedded ClickHouse changed the JVM's signal handling during " + when + " ("
            + String.join(", ", changed) + "); dpone restored it and refuses to run on, because a Java thread that "
            + "lands in another handler hangs or dies");
    }

    private static ChdbNative load(Path library) {
        synchronized (LOAD_LOCK) {
            if (nativeApi != null) {
                if (!library.toAbsolutePath().equals(loadedFrom)) {
                    throw new ChdbException("a different embedded ClickHouse library is already loaded");
                }
                return nativeApi;
            }
            SignalHandlerGuard before = SignalHandlerGuard.capture();
            ChdbNative api;
            List<String> changed;
            try {
                NativeLibrary image = NativeLibrary.getInstance(library.toAbsolutePath().toString());
                api = Native.load(library.toAbsolutePath().toString(), ChdbNative.class);
                SignalIsolation.install(image, library.toAbsolutePath());
                disableEngineHandlers(api);
            } catch (UnsatisfiedLinkError e) {
                throw new ChdbException("embedded ClickHouse library cannot be loaded: " + e.getMessage());
            } finally {
                changed = SignalHandlerGuard.capture().changedSince(before);
                before.restore();
            }
            if (!changed.isEmpty()) {
                throw signalsChanged("load", changed);
            }
            nativeApi = api;
            loadedFrom = library.toAbsolutePath();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(ChdbConnection::close),
                "dpone-chdb-close"));
            return nativeApi;
        }
    }

    /**
     * Tells ClickHouse not to install its crash handlers. Builds before chDB 26.3 lack the switch; the isolation
     * alone keeps the handlers there.
     */
    private static void disableEngineHandlers(ChdbNative api) {
        try {
            api.chdb_set_signal_handlers_enabled(0);
        } catch (UnsatisfiedLinkError olderBuild) {
            // nothing to switch off: SignalIsolation already turns the library's sigaction calls into queries
        }
    }

    /** Runs {@code sql} and returns the result in {@code format}; throws {@link ChdbException} on a query error. */
    public byte[] query(String sql, String format) {
        return execute(sql, format).bytes();
    }

    /** A statement's result and what the engine counted for it (a server's {@code X-ClickHouse-Summary}). */
    public record Result(byte[] bytes, long rowsRead, long bytesRead, long rowsWritten, long bytesWritten,
                         long elapsedNanos) {
    }

    /** As {@link #query}, with the engine's counters. */
    public synchronized Result execute(String sql, String format) {
        ensureOpen();
        byte[] q = sql.getBytes(StandardCharsets.UTF_8);
        byte[] f = format.getBytes(StandardCharsets.US_ASCII);
        Pointer result = api.chdb_query_n(connection, q, q.length, f, f.length);
        if (result == null) {
            throw new ChdbException("embedded ClickHouse returned no result");
        }
        try {
            Pointer error = api.chdb_result_error(result);
            if (error != null) {
                String message = error.getString(0, StandardCharsets.UTF_8.name());
                if (!message.isEmpty()) {
                    throw new ChdbException(message);
                }
            }
            long length = api.chdb_result_length(result);
            if (length > Integer.MAX_VALUE - 16) {
                throw new ChdbException("embedded ClickHouse result exceeds 2 GiB; stream it to a file instead");
            }
            byte[] bytes = length == 0 ? new byte[0] : api.chdb_result_buffer(result).getByteArray(0, (int) length);
            return new Result(bytes, api.chdb_result_rows_read(result), api.chdb_result_bytes_read(result),
                api.chdb_result_rows_written(result), api.chdb_result_bytes_written(result),
                (long) (api.chdb_result_elapsed(result) * 1e9));
        } finally {
            api.chdb_destroy_query_result(result);
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
            api.chdb_close_conn(connectionHandle);
        }
    }
}
