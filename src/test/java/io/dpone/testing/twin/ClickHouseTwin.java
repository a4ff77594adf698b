package io.dpone.testing.twin;

import com.clickhouse.client.api.internal.ClickHouseLZ4InputStream;
import com.clickhouse.client.api.internal.ClickHouseLZ4OutputStream;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.dpone.clickhouse.chdb.ChdbConnection;
import io.dpone.clickhouse.chdb.ChdbException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import net.jpountz.lz4.LZ4Factory;

/**
 * A ClickHouse HTTP twin for tests: ClickHouse's HTTP interface, as client-v2 0.10 uses it with dpone's production
 * settings, served over one embedded engine of its own, in its own process. A twin run is not a server run: its
 * {@code ON CLUSTER} and replication are emulations through ZooKeeper, with no Keeper on the server and no native
 * protocol (docs/testing.md).
 *
 * <p>Usage: {@code ClickHouseTwin --port P --path DIR [--user U --password-env VAR] [--connections N]
 * [--config-file XML] [--ddl-host HOST:PORT]} (the engine's server configuration: {@code <zookeeper>} for KeeperMap,
 * the DDL queue and replication, {@code <remote_servers>} for {@code system.clusters} and {@code ON CLUSTER};
 * {@code --ddl-host} makes the twin that replica of its clusters: it runs their queued DDL and replicates their
 * {@code Replicated*MergeTree} tables); prints
 * {@code clickhouse-twin ready http://127.0.0.1:P} on stdout once it serves, and stops on SIGTERM or SIGINT.
 */
public final class ClickHouseTwin {
    static final String DISPLAY_NAME = "dpone-clickhouse-twin";
    private static final LZ4Factory LZ4 = LZ4Factory.fastestInstance();

    private final TwinEngine engine;
    private final String user;
    private final String password;
    private final TwinFaults faults = new TwinFaults();
    private TwinDistributedDdl ddl;
    private TwinReplication replication;

    private ClickHouseTwin(TwinEngine engine, String user, String password) {
        this.engine = engine;
        this.user = user;
        this.password = password;
        this.replication = TwinReplication.none(engine);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        if (!options.containsKey("--port") || !options.containsKey("--path")) {
            System.err.println("usage: clickhouse-twin --port P --path DIR [--user U --password-env VAR]"
                + " [--connections N] [--config-file XML]");
            System.exit(2);
        }
        int port = Integer.parseInt(options.get("--port"));
        String passwordEnv = options.get("--password-env");
        String password = passwordEnv == null ? "" : System.getenv(passwordEnv);
        if (password == null) {
            System.err.println("clickhouse-twin: environment variable " + passwordEnv + " is not set");
            System.exit(2);
        }
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        } catch (BindException e) {
            System.err.println("clickhouse-twin: port " + port + " is in use");
            System.exit(2);
            return;
        }
        TwinEngine engine = new TwinEngine(Path.of(options.get("--path")),
            options.containsKey("--config-file") ? Path.of(options.get("--config-file")) : null,
            Integer.parseInt(options.getOrDefault("--connections", "4")));
        ClickHouseTwin twin = new ClickHouseTwin(engine, options.getOrDefault("--user", "default"), password);
        TwinClusterConfig cluster = TwinClusterConfig.read(
            options.containsKey("--config-file") ? Path.of(options.get("--config-file")) : null);
        TwinReplicatedTables replicated = null;
        if (cluster != null) {
            TwinDdlQueue queue = new TwinDdlQueue(cluster.zooKeeper());
            String host = options.get("--ddl-host");
            twin.ddl = new TwinDistributedDdl(queue, engine, cluster.clusters(),
                host != null ? host : "127.0.0.1:" + server.getAddress().getPort());
            if (host != null) {
                replicated = new TwinReplicatedTables(Path.of(options.get("--path")));
                twin.replication = new TwinReplication(engine, replicated, new TwinReplicaLog(cluster.zooKeeper()),
                    host, cluster.shard(host), "http://127.0.0.1:" + server.getAddress().getPort());
                new TwinReplicationWorker(twin.replication, twin.faults).start();
                new TwinDdlWorker(queue, twin.replication, twin.faults, host).start();
            }
        }
        ExecutorService workers = Executors.newFixedThreadPool(8);
        server.setExecutor(workers);
        server.createContext("/ping", twin::ping);
        server.createContext("/twin/faults", twin::configureFaults);
        if (replicated != null) {
            TwinReplicatedTables blocks = replicated;
            server.createContext(TwinBlockFetch.PATH, exchange -> TwinBlockFetch.serve(exchange, blocks));
        }
        server.createContext("/", twin::handle);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            workers.shutdownNow();
            engine.close();
            stopped.countDown();
        }, "clickhouse-twin-stop"));
        server.start();
        System.out.println("clickhouse-twin ready http://127.0.0.1:" + server.getAddress().getPort());
        System.out.flush();
        stopped.await();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            out.put(args[i], args[i + 1]);
        }
        return out;
    }

    private void ping(HttpExchange exchange) throws IOException {
        byte[] ok = "Ok.\n".getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=UTF-8");
        exchange.sendResponseHeaders(200, ok.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(ok);
        }
    }

    private void configureFaults(HttpExchange exchange) throws IOException {
        try {
            faults.configure(TwinRequest.params(exchange));
        } catch (IllegalArgumentException e) {
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            return;
        }
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            TwinRequest request = TwinRequest.parse(exchange);
            String queryId = request.queryId() == null ? UUID.randomUUID().toString() : request.queryId();
            var headers = exchange.getResponseHeaders();
            headers.set("X-ClickHouse-Server-Display-Name", DISPLAY_NAME);
            headers.set("X-ClickHouse-Query-Id", queryId);
            headers.set("X-ClickHouse-Timezone", engine.timezone);
            if (!user.equals(request.user()) || !password.equals(request.password())) {
                error(exchange, request, 403, TwinErrors.AUTHENTICATION_FAILED,
                    TwinErrors.authenticationFailed(request.user(), engine.version));
                return;
            }
            faults.delay();
            int injected = faults.injectedStatus();
            if (injected != 0) {
                byte[] body = ("twin: injected HTTP " + injected + "\n").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(injected, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            InputStream body = request.decompress()
                ? new ClickHouseLZ4InputStream(exchange.getRequestBody(), LZ4.fastDecompressor(), 65536)
                : exchange.getRequestBody();
            ChdbConnection.Result result;
            try {
                if (TwinEngine.isDataInsert(request.queryParam())) {
                    if (faults.failThisInsert()) {
                        body.transferTo(OutputStream.nullOutputStream());
                        throw new ChdbException(faults.insertFailure());
                    }
                    result = replication.insert(request, request.queryParam(), body);
                } else {
                    String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                    String sql = request.queryParam() == null || request.queryParam().isEmpty() ? text
                        : request.queryParam() + (text.isEmpty() ? "" : "\n" + text);
                    if (sql.isBlank()) {
                        throw new ChdbException("Code: 62. DB::Exception: Empty query. (SYNTAX_ERROR)");
                    }
                    result = ddl != null && TwinDistributedDdl.handles(sql) ? distributed(request, sql)
                        : replication.run(request, sql, request.format());
                }
            } catch (ChdbException e) {
                int code = TwinErrors.code(e.getMessage());
                error(exchange, request, TwinErrors.status(code), code, TwinErrors.body(e.getMessage(),
                    engine.version));
                return;
            } catch (IllegalArgumentException e) {
                error(exchange, request, 400, 115, TwinErrors.body("Code: 115. DB::Exception: Unknown setting. "
                    + "(UNKNOWN_SETTING)", engine.version));
                return;
            }
            headers.set("X-ClickHouse-Format", request.format());
            headers.set("X-ClickHouse-Summary", summary(result, request.format()));
            headers.set("Content-Type", "text/plain; charset=UTF-8");
            exchange.sendResponseHeaders(200, 0);
            write(exchange, request, result.bytes());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Distributed DDL or a queue read; a failure of the queue itself is the server's KEEPER_EXCEPTION. */
    private ChdbConnection.Result distributed(TwinRequest request, String sql) throws InterruptedException {
        try {
            return ddl.run(request, sql);
        } catch (ChdbException | InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new ChdbException("Code: 999. DB::Exception: the twin's DDL queue failed: " + e.getMessage()
                + ". (KEEPER_EXCEPTION)");
        }
    }

    private void error(HttpExchange exchange, TwinRequest request, int status, int code, String message)
            throws IOException {
        exchange.getResponseHeaders().set("X-ClickHouse-Exception-Code", String.valueOf(code));
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=UTF-8");
        exchange.sendResponseHeaders(status, 0);
        // as the server: authentication errors are sent before its compressed output buffers exist
        boolean plain = status == 401 || status == 403;
        write(exchange, plain ? null : request, message.getBytes(StandardCharsets.UTF_8));
    }

    private static void write(HttpExchange exchange, TwinRequest request, byte[] bytes) throws IOException {
        OutputStream raw = exchange.getResponseBody();
        if (request != null && request.compress()) {
            try (OutputStream out = new ClickHouseLZ4OutputStream(raw, LZ4.fastCompressor(), 65536)) {
                out.write(bytes);
            }
        } else {
            try (raw) {
                raw.write(bytes);
            }
        }
    }

    /**
     * The summary as a server with {@code wait_end_of_query=1} sends it (22.8 and later): final counters, and
     * {@code result_rows}, the rows of the result, counted here for the line formats (one row a line, after the
     * names and types lines); the binary formats leave it out, as a server before 22.8 does.
     */
    private static String summary(ChdbConnection.Result r, String format) {
        long rows = resultRows(format, r.bytes());
        return "{\"read_rows\":\"" + r.rowsRead() + "\",\"read_bytes\":\"" + r.bytesRead() + "\",\"written_rows\":\""
            + r.rowsWritten() + "\",\"written_bytes\":\"" + r.bytesWritten() + "\",\"total_rows_to_read\":\"0\","
            + (rows < 0 ? "" : "\"result_rows\":\"" + rows + "\",")
            + "\"result_bytes\":\"" + r.bytes().length + "\",\"elapsed_ns\":\"" + r.elapsedNanos() + "\"}";
    }

    /** The rows of a result in a line format, or -1 for a format the twin does not count. */
    static long resultRows(String format, byte[] bytes) {
        boolean lines = format.startsWith("JSONEachRow") || format.startsWith("JSONCompactEachRow")
            || format.startsWith("JSONStringsEachRow") || format.startsWith("JSONCompactStringsEachRow")
            || format.startsWith("TabSeparated") || format.startsWith("TSV");
        if (!lines) {
            return -1;
        }
        long n = 0;
        for (byte b : bytes) {
            if (b == '\n') {
                n++;
            }
        }
        int head = format.endsWith("WithNamesAndTypes") ? 2 : format.endsWith("WithNames") ? 1 : 0;
        return Math.max(0, n - head);
    }
}
