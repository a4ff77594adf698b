package io.dpone.clickhouse;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.ClientFaultCause;
import com.clickhouse.client.api.DataStreamWriter;
import com.clickhouse.client.api.ServerException;
import com.clickhouse.client.api.insert.InsertResponse;
import com.clickhouse.client.api.insert.InsertSettings;
import com.clickhouse.client.api.query.QueryResponse;
import com.clickhouse.client.api.query.QuerySettings;
import com.clickhouse.data.ClickHouseFormat;
import io.dpone.connect.ConnectionSpec;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * A ClickHouse server reached over HTTP with the official client (client-v2). Every statement runs with
 * {@code wait_end_of_query=1}, so a failure anywhere in the statement comes back as an HTTP error (and so as a
 * {@link ClickHouseQueryException} carrying the server's message) rather than as a truncated 200 response.
 *
 * <p>Messages this class creates never name the endpoint, the user or the password: transport failures are
 * reported against the connection alias only.
 */
public final class ServerClickHouseEndpoint implements ClickHouseEndpoint {
    private static final int CONNECT_TIMEOUT_SECONDS = 10;
    /** How long a statement's response may stay silent before the request fails (alias option socket_timeout). */
    static final java.time.Duration DEFAULT_SOCKET_TIMEOUT = java.time.Duration.ofMinutes(10);

    private final Supplier<Client> clients;
    private final ResponseLimits limits;
    private final String alias;
    private volatile Client client;
    private volatile boolean closed;
    /**
     * Whether the server has answered this endpoint (a result or an HTTP error): a connect it refuses after that is
     * a restart or a balancer's blip, worth another try; one it refuses from the start is a server that is down or a
     * wrong port, which fails at once ({@link io.dpone.retry.TransientFaults#refused}).
     */
    private volatile boolean answered;

    /** What to check when a request gets no answer (ConnectionHints, through the alias). */
    private String hint = "";

    private ServerClickHouseEndpoint(Supplier<Client> clients, ResponseLimits limits, String alias) {
        this.clients = clients;
        this.limits = limits;
        this.alias = alias;
        this.client = clients.get();
    }

    /**
     * Builds a client for {@code spec}: {@code url} is the HTTP(S) endpoint (e.g. {@code http://host:8123}),
     * {@code options.database} the default database, {@code user}/{@code password} the credentials. Nothing is
     * sent to the server until the first statement.
     */
    public static ServerClickHouseEndpoint open(ConnectionSpec spec) {
        String alias = spec.alias();
        String url = spec.url();
        if (url == null || url.isBlank()) {
            throw invalid(alias, "has no url");
        }
        String scheme;
        try {
            URI uri = URI.create(url.trim());
            scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri.getHost() == null) {
                throw invalid(alias, "url has no host");
            }
            if (uri.getUserInfo() != null) {
                throw invalid(alias, "url must not carry credentials; use user and password_env");
            }
        } catch (IllegalArgumentException e) {
            throw invalid(alias, "url is not a valid URL");
        }
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw invalid(alias, "url must be http:// or https://");
        }
        java.time.Duration socketTimeout = DEFAULT_SOCKET_TIMEOUT;
        String configuredTimeout = spec.option("socket_timeout", null);
        if (configuredTimeout != null) {
            socketTimeout = io.dpone.manifest.ShortDuration.parse(configuredTimeout.trim()).filter(d -> !d.isZero())
                .orElseThrow(() -> invalid(alias, "options.socket_timeout must be a duration such as 30s or 10m"));
        }
        Client.Builder builder = new Client.Builder()
            .setConnectTimeout(CONNECT_TIMEOUT_SECONDS, ChronoUnit.SECONDS)
            .setConnectionRequestTimeout(CONNECT_TIMEOUT_SECONDS, ChronoUnit.SECONDS)
            .setSocketTimeout(socketTimeout.toMillis(), ChronoUnit.MILLIS)
            // Only retry failures where the statement cannot have run; a socket timeout may have loaded rows.
            .retryOnFailures(ClientFaultCause.NoHttpResponse, ClientFaultCause.ConnectTimeout,
                ClientFaultCause.ConnectionRequestTimeout)
            .setUsername(spec.user() == null || spec.user().isBlank() ? "default" : spec.user())
            .setPassword(spec.password() == null ? "" : spec.password().reveal())
            .setClientName("dpone");
        String database = spec.option("database", null);
        if (database != null && !database.isBlank()) {
            builder.setDefaultDatabase(database);
        }
        ResponseLimits limits = ResponseLimits.of(spec, socketTimeout);
        try {
            builder.addEndpoint(url.trim());
            Supplier<Client> clients = () -> {
                Client c = builder.build();
                if (!HttpHeadLimits.apply(c, ResponseLimits.MAX_HEADER_LINE, ResponseLimits.MAX_HEADERS)) {
                    c.close();
                    throw new IllegalStateException("response head limits cannot be applied to this client-v2");
                }
                return c;
            };
            ServerClickHouseEndpoint endpoint = new ServerClickHouseEndpoint(clients, limits, alias);
            endpoint.hint = ": " + io.dpone.connect.ConnectionHints.either(spec, "ClickHouse server");
            return endpoint;
        } catch (RuntimeException e) {
            // the client's own messages quote the endpoint; report the alias only
            throw invalid(alias, "cannot configure the ClickHouse client (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static DponeException invalid(String alias, String what) {
        return new DponeException(BlockerCode.CONNECTION_CONTEXT_INVALID, alias,
            "ClickHouse connection '" + alias + "' " + what);
    }

    @Override
    public void execute(String sql) {
        QuerySettings settings = settings(ClickHouseFormat.TabSeparated);
        bounded(c -> {
            return read(c, call(() -> c.query(sql, settings)), in -> {
                drain(in);
                return null;
            });
        });
    }

    /**
     * Runs a statement with an explicit query id and extra server settings (a distributed DDL statement whose id
     * must be deterministic). Failures are reported like {@link #execute(String)}.
     */
    public void execute(String sql, String queryId, java.util.Map<String, String> serverSettings) {
        QuerySettings settings = settings(ClickHouseFormat.TabSeparated).setQueryId(queryId);
        serverSettings.forEach(settings::serverSetting);
        bounded(c -> {
            return read(c, call(() -> c.query(sql, settings)), in -> {
                drain(in);
                return null;
            });
        });
    }

    @Override
    public List<List<String>> query(String sql) {
        QuerySettings settings = settings(ClickHouseFormat.JSONCompactEachRow);
        return bounded(c -> rows(c, call(() -> c.query(sql, settings)), 0));
    }

    @Override
    public List<List<String>> queryReadOnly(String sql) {
        QuerySettings settings = settings(ClickHouseFormat.JSONCompactEachRowWithNames);
        settings.serverSetting("readonly", "1");
        String statement = ReadOnlySql.statement(sql);
        return bounded(c -> rows(c, call(() -> c.query(statement, settings)), 1));
    }

    /**
     * Reads a {@code JSONCompactEachRow} result ({@code headerRows} lines of names before the data) and checks it is
     * whole: a response cut short must fail, transient, and never read as an empty or short result. A body cut inside
     * its chunked framing fails already (httpcore5's premature end of a chunk); a response cut inside its head does
     * not: httpcore5 takes the end of the stream for the end of the head, and a head without its
     * {@code Transfer-Encoding} reads as a body delimited by the close, which is empty. So the head must carry
     * {@code X-ClickHouse-Summary} (a server sends it on every HTTP answer, after the framing headers), whole, and
     * when it states {@code result_rows} (servers since 22.8, final with {@code wait_end_of_query=1}) the body must
     * hold at least that many rows.
     */
    private List<List<String>> rows(Client c, QueryResponse response, int headerRows) {
        List<List<String>> rows = read(c, response, CompactRows::parse);
        String summary = response.getResponseHeaders() == null ? null
            : response.getResponseHeaders().get("X-ClickHouse-Summary");
        long stated = ResponseSummary.resultRows(summary);
        if (stated == ResponseSummary.MISSING) {
            throw truncated("its head ended before the X-ClickHouse-Summary header");
        }
        if (stated == ResponseSummary.MALFORMED) {
            throw truncated("its X-ClickHouse-Summary header is cut short");
        }
        long data = Math.max(0, rows.size() - headerRows);
        if (stated > data || rows.size() < headerRows) {
            throw truncated("it holds " + data + " of the " + stated + " rows the server reported");
        }
        return rows;
    }

    private io.dpone.retry.TransientFailure truncated(String why) {
        return new io.dpone.retry.TransientFailure(BlockerCode.CONNECTION_FAILED, alias, "the response of the "
            + "ClickHouse server of connection '" + alias + "' was cut short (" + why + ")" + hint);
    }

    /**
     * Streams the chunk file as the request body of
     * {@code INSERT INTO table (columns) SELECT selectList FROM input(structure) [SETTINGS ...] FORMAT format}.
     * client-v2 builds raw inserts as {@code "INSERT INTO " + tableName + " FORMAT " + format}, so the
     * column list and the {@code SELECT ... FROM input(...)} part travel in the table-name argument. The body is
     * re-read from the file on each attempt, so a retried request sends the whole chunk again.
     */
    @Override
    public void insertFile(InsertFile insert) {
        ClickHouseFormat format = format(insert.format());
        if (!Files.isRegularFile(insert.file())) {
            throw new UncheckedIOException(new NoSuchFileException("chunk file is missing"));
        }
        String target = insert.table() + " (" + insert.columns() + ") SELECT " + insert.selectList()
            + " FROM input(" + ClickHouseSql.literal(insert.structure()) + ")"
            + (insert.settings() == null || insert.settings().isBlank() ? "" : " SETTINGS " + insert.settings());
        DataStreamWriter body = out -> {
            try (InputStream in = Files.newInputStream(insert.file())) {
                in.transferTo(out);
            }
        };
        InsertSettings settings = new InsertSettings();
        settings.serverSetting("wait_end_of_query", "1");
        ensureOpen();
        // completed when it returns: with wait_end_of_query the status line reflects the whole insert
        bounded(c -> {
            InsertResponse response = call(() -> c.insert(target, body, format, settings));
            response.close();
            return null;
        });
    }

    /**
     * Runs one request, response included, under the whole-response deadline: when it passes, the request's client
     * is closed at once (its connections with it, which ends a blocked read) and replaced for the next request, and
     * the request fails with {@code connection.failed} naming the deadline.
     */
    private <T> T bounded(java.util.function.Function<Client, T> request) {
        Client c = client;
        try (ResponseLimits.Deadline d = limits.start(() -> abort(c))) {
            try {
                T result = request.apply(c);
                answered = true;
                return result;
            } catch (RuntimeException e) {
                if (d.expired()) {
                    throw new io.dpone.retry.TransientFailure(BlockerCode.CONNECTION_FAILED, alias, "the ClickHouse server of "
                        + "connection '" + alias + "' did not complete its response within response_timeout "
                        + limits.responseTimeout().toMillis() + " ms");
                }
                throw e;
            }
        }
    }

    /** Reads a response body within {@code max_response_bytes}. */
    private interface BodyReader<T> {
        T read(InputStream in) throws IOException;
    }

    /**
     * Reads {@code response}'s body. When the read fails (a limit, a broken or malformed body) the client is
     * aborted before the response is closed: closing an HTTP response reads the rest of its body to reuse the
     * connection, which for an endless body never ends.
     */
    private <T> T read(Client c, QueryResponse response, BodyReader<T> reader) {
        try {
            T value = reader.read(limits.bounded(response.getInputStream()));
            closeQuietly(response);
            return value;
        } catch (IOException | RuntimeException e) {
            abort(c);
            closeQuietly(response);
            throw translate(e);
        }
    }

    private void abort(Client expired) {
        try {
            expired.close(); // closes its connections at once: a blocked read ends
        } finally {
            synchronized (this) {
                if (client == expired && !closed) {
                    client = clients.get();
                }
            }
        }
    }

    private static ClickHouseFormat format(String name) {
        for (ClickHouseFormat f : ClickHouseFormat.values()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unsupported ClickHouse input format: " + name);
    }

    @Override
    public String kind() {
        return "server";
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        synchronized (this) {
            closed = true;
        }
        client.close();
    }

    private QuerySettings settings(ClickHouseFormat format) {
        ensureOpen();
        QuerySettings settings = new QuerySettings().setFormat(format);
        settings.waitEndOfQuery(true);
        // NaN and infinities as strings, not null: a float must never read back as SQL NULL
        settings.serverSetting("output_format_json_quote_denormals", "1");
        return settings;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("endpoint is closed");
        }
    }

    /** Waits for an operation; client-v2 runs synchronously by default, so it may also throw right away. */
    private <T> T call(Supplier<CompletableFuture<T>> operation) {
        try {
            return operation.get().get();
        } catch (RuntimeException e) {
            throw translate(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DponeException(BlockerCode.CONNECTION_FAILED, alias,
                "interrupted while waiting for the ClickHouse server of connection '" + alias + "'");
        } catch (ExecutionException e) {
            throw translate(e.getCause() == null ? e : e.getCause());
        }
    }

    /** Server errors keep the server's message; anything else is reported without endpoint details. */
    private RuntimeException translate(Throwable e) {
        Throwable t = e;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof ResponseLimits.TooLarge) {
                return new DponeException(BlockerCode.CONNECTION_FAILED, alias, "the ClickHouse server of connection '"
                    + alias + "' sent a response larger than max_response_bytes (" + limits.maxResponseBytes() + ")");
            }
            if (c instanceof org.apache.hc.core5.http.MessageConstraintException) {
                return new DponeException(BlockerCode.CONNECTION_FAILED, alias, "the ClickHouse server of connection '"
                    + alias + "' sent response headers beyond the limits (" + ResponseLimits.MAX_HEADERS
                    + " lines of at most " + ResponseLimits.MAX_HEADER_LINE + " characters)");
            }
            if (c instanceof org.apache.hc.core5.http.ParseException
                    || c instanceof org.apache.hc.core5.http.NotImplementedException) {
                // a response head that ends in a partial line (the connection was cut inside it, e.g. inside
                // "Transfer-Encoding: chunked", read as an unknown transfer encoding): worth another try
                return truncated("its head ends in a partial line");
            }
            if (c instanceof IllegalArgumentException && readingHead(c)) {
                // client-v2 parsing a header cut inside its value (the summary's JSON, the format's name)
                return truncated("a header of its head is cut short");
            }
            if (c instanceof ServerException) {
                answered = true; // an HTTP answer, whatever it says: something listens there
            }
            if (c instanceof ServerException server
                    && io.dpone.retry.TransientFaults.isTransientHttpStatus(server.getTransportProtocolCode())
                    && server.getCode() == ServerException.CODE_UNKNOWN) {
                // a proxy's (or a load balancer's) answer, no ClickHouse error: worth another try
                return new io.dpone.retry.TransientFailure(BlockerCode.CONNECTION_FAILED, alias, "the ClickHouse "
                    + "server of connection '" + alias + "' answered HTTP " + server.getTransportProtocolCode()
                    + " without a ClickHouse error" + hint);
            }
            if (c instanceof ServerException server
                    && io.dpone.retry.TransientFaults.isTransientServerCode(server.getCode())) {
                return new io.dpone.retry.TransientFailure(BlockerCode.CONNECTION_FAILED, alias, "the ClickHouse "
                    + "server of connection '" + alias + "' failed the statement with a network error (code "
                    + server.getCode() + ")");
            }
            if (c instanceof ServerException server) {
                String message = server.getMessage();
                return new ClickHouseQueryException(message == null || message.isBlank()
                    ? "ClickHouse server error code " + server.getCode() : message);
            }
            if (c.getCause() == c) {
                break;
            }
        }
        if (t instanceof ClickHouseQueryException q) {
            return q;
        }
        if (t instanceof DponeException d) {
            return d;
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String why = root == t ? t.getClass().getSimpleName()
            : t.getClass().getSimpleName() + " / " + root.getClass().getSimpleName();
        String message = "request to the ClickHouse server of connection '" + alias + "' failed (" + why + ")" + hint;
        return io.dpone.retry.TransientFaults.isTransient(t) || answered && io.dpone.retry.TransientFaults.refused(t)
            ? new io.dpone.retry.TransientFailure(BlockerCode.CONNECTION_FAILED, alias, message)
            : new DponeException(BlockerCode.CONNECTION_FAILED, alias, message);
    }

    /** Client-v2's classes that read a response's head (its summary and format headers). */
    private static final java.util.Set<String> HEAD_READERS = java.util.Set.of(
        "com.clickhouse.client.api.data_formats.internal.ProcessParser",
        "com.clickhouse.client.api.internal.HttpAPIClientHelper$TransportResponseImpl");

    /** Whether {@code e} was raised while client-v2 read a response's head: by its top frames, client-v2's own. */
    private static boolean readingHead(Throwable e) {
        StackTraceElement[] frames = e.getStackTrace();
        for (int i = 0; i < Math.min(frames.length, 8); i++) {
            if (HEAD_READERS.contains(frames[i].getClassName())) {
                return true;
            }
        }
        return false;
    }

    private static void closeQuietly(AutoCloseable response) {
        try {
            response.close();
        } catch (Exception e) {
            // the result was read or the statement failed already; nothing more to report
        }
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        while (in.read(buffer) >= 0) {
            // discard: statements without a result set
        }
    }
}
