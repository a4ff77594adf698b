package io.dpone.testing.twin;

import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.clickhouse.chdb.ChdbConnection;
import io.dpone.clickhouse.chdb.ChdbInstaller;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The twin's one embedded engine: a few connections on its own data path (connections on one path run queries in
 * parallel; one connection serialises them), each set to the request's database and settings before its statement,
 * as a server applies them per query.
 *
 * <p>A data insert ({@code INSERT ... FORMAT f} with the rows in the request body) is the one place the statement is
 * rewritten: the body is written to a temporary file, and {@code INSERT INTO t [(cols)] FORMAT f} becomes
 * {@code INSERT INTO t [(cols)] FROM INFILE 'tmp' FORMAT f}, while
 * {@code INSERT INTO t (cols) SELECT ... FROM input('structure') [SETTINGS ...] FORMAT f} becomes the same
 * {@code SELECT} {@code FROM file('tmp', 'f', 'structure')}. chDB cannot read a request body, only a file.
 *
 * <p>The other rewrite: {@code DROP ... SYNC} runs without {@code SYNC}. The embedded engine never finishes a
 * synchronous drop (a twin's {@code DROP TABLE ... SYNC} was still waiting after 1,178 s here; dpone's embedded path
 * drops without it for the same reason); without it the table leaves {@code system.tables} and frees its name at once,
 * which is all a caller of the server can observe before its data is removed.
 */
final class TwinEngine implements AutoCloseable {
    private static final Pattern INSERT_FORMAT = Pattern.compile(
        "(?is)^\\s*(INSERT\\s+INTO\\s+.+?)\\s+FORMAT\\s+([A-Za-z0-9_]+)\\s*;?\\s*$");
    private static final Pattern INPUT_CALL = Pattern.compile("(?is)\\binput\\s*\\(\\s*('(?:[^'\\\\]|\\\\.)*')\\s*\\)");
    private static final Pattern DROP_SYNC = Pattern.compile("(?is)^(\\s*DROP\\s+(?:TABLE|DATABASE|VIEW|DICTIONARY)\\b.*?)"
        + "\\s+SYNC\\s*;?\\s*$");
    private static final Pattern PLAIN_VALUE = Pattern.compile("^-?[0-9]+(\\.[0-9]+)?$");

    private final BlockingQueue<Session> sessions;
    private final Path spool;
    final String version;
    final String timezone;

    TwinEngine(Path dataPath, Path configFile, int connections) throws IOException {
        Path library = ChdbInstaller.forUserCache().ensureInstalled();
        Files.createDirectories(dataPath);
        this.spool = Files.createDirectories(dataPath.resolve("twin-spool"));
        this.sessions = new ArrayBlockingQueue<>(connections);
        for (int i = 0; i < connections; i++) {
            sessions.add(new Session(ChdbConnection.open(library, dataPath.resolve("engine"), configFile)));
        }
        Session s = sessions.peek();
        String[] info = new String(s.connection.query("SELECT version(), timezone()", "TSV"),
            StandardCharsets.UTF_8).strip().split("\t");
        this.version = info[0];
        this.timezone = info[1];
    }

    /** True when {@code statement} is an insert whose rows travel in the body. */
    static boolean isDataInsert(String statement) {
        return statement != null && INSERT_FORMAT.matcher(statement).matches();
    }

    /** Runs {@code sql} with the request's database and settings; the result in {@code format}. */
    ChdbConnection.Result run(TwinRequest request, String sql, String format) throws InterruptedException {
        String readonly = request.settings().getOrDefault("readonly", "0");
        if (!readonly.equals("0") && io.dpone.clickhouse.ReadOnlySql.refusal(sql).isPresent()) {
            // readonly=1 as a server applies it: only reads run (the sessions here are pooled, so the setting itself
            // is never SET on one: a session in readonly mode could not be reset for the next request)
            throw new io.dpone.clickhouse.chdb.ChdbException(
                "Code: 164. DB::Exception: Cannot execute query in readonly mode. (READONLY)");
        }
        Matcher drop = DROP_SYNC.matcher(sql);
        String statement = drop.matches() ? drop.group(1) : sql;
        Session s = sessions.take();
        try {
            s.prepare(request);
            return s.connection.execute(statement, format);
        } finally {
            sessions.add(s);
        }
    }

    /** Runs the data insert {@code statement} with its rows read from {@code body}. */
    ChdbConnection.Result insert(TwinRequest request, String statement, InputStream body)
            throws IOException, InterruptedException {
        Matcher m = INSERT_FORMAT.matcher(statement);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a data insert");
        }
        Path file = Files.createTempFile(spool, "body-", ".data");
        try {
            try (var out = Files.newOutputStream(file)) {
                body.transferTo(out);
            }
            String head = m.group(1);
            String format = m.group(2);
            String path = ClickHouseSql.literal(file.toAbsolutePath().toString());
            Matcher input = INPUT_CALL.matcher(head);
            String sql = input.find()
                ? head.substring(0, input.start()) + "file(" + path + ", " + ClickHouseSql.literal(format) + ", "
                    + input.group(1) + ")" + head.substring(input.end())
                : head + " FROM INFILE " + path + " FORMAT " + format;
            return run(request, sql, "TabSeparated");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Override
    public void close() {
        sessions.forEach(s -> s.connection.close());
    }

    /** One connection and the database and settings it was last set to. */
    private static final class Session {
        final ChdbConnection connection;
        String database = "default";
        final Map<String, String> settings = new HashMap<>();

        Session(ChdbConnection connection) {
            this.connection = connection;
        }

        void prepare(TwinRequest request) {
            java.util.Map<String, String> wanted = new java.util.HashMap<>(request.settings());
            wanted.remove("readonly"); // checked in run(): never SET on a pooled session
            for (var it = settings.entrySet().iterator(); it.hasNext();) {
                var e = it.next();
                if (!wanted.containsKey(e.getKey())) {
                    connection.query("SET " + ClickHouseSql.id(e.getKey()) + " = DEFAULT", "TSV");
                    it.remove();
                }
            }
            wanted.forEach((k, v) -> {
                if (!v.equals(settings.get(k))) {
                    settings.remove(k);
                    connection.query("SET " + ClickHouseSql.id(k) + " = "
                        + (PLAIN_VALUE.matcher(v).matches() ? v : ClickHouseSql.literal(v)), "TSV");
                    settings.put(k, v);
                }
            });
            if (!request.database().equals(database)) {
                connection.query("USE " + ClickHouseSql.id(request.database()), "TSV");
                database = request.database();
            }
        }
    }
}
