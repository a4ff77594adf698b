package io.dpone.testing.mssql.engine;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One client session: its H2 connection (never in H2 autocommit: the session commits itself, so a commit can first
 * stamp the transaction's CDC rows with an LSN and its Change Tracking rows with a version), SQL Server's
 * transaction state ({@code @@TRANCOUNT}, {@code IMPLICIT_TRANSACTIONS}), prepared handles and the declared-type
 * cache. Statements the twin recognises run in {@link Commands}; everything else is translated by
 * {@link Translation} and run by H2.
 */
final class EngineSession implements TwinSession, ResultWriter.Declared {
    private static final AtomicInteger SPIDS = new AtomicInteger(51);
    private static final Pattern NO_TABLE = Pattern.compile("(?is)\\s*SELECT\\b(?!.*\\bFROM\\b).*");
    static final Pattern GET_COLUMNS = Pattern.compile("(?is)\\s*DECLARE\\s+@mssqljdbc_temp_sp_columns_result\\b.*");

    final H2Backend backend;
    final int spid = SPIDS.getAndIncrement();
    TwinDatabase db;
    Connection h2;
    Capture.Pending pending;
    boolean implicitTransactions;
    int trancount;
    boolean nocount;
    long rowcount;
    private final Map<Integer, String[]> prepared = new ConcurrentHashMap<>();
    private final AtomicInteger handles = new AtomicInteger(1);
    private long catalogVersion = -1;
    private final Map<String, Map<String, TwinCatalog.Column>> declared = new HashMap<>();
    /** Declared columns of derived tables the translation made ({@code CHANGETABLE(...) AS [ct]}), by alias. */
    final Map<String, Map<String, TwinCatalog.Column>> aliases = new HashMap<>();

    final String login;
    private Map<String, Boolean> deniedCache = new HashMap<>();

    EngineSession(H2Backend backend, TwinDatabase db, String login) throws SqlServerError {
        this.backend = backend;
        this.login = login == null ? "sa" : login;
        use(db);
    }

    void use(TwinDatabase target) throws SqlServerError {
        try {
            Connection next = target.connect();
            if (h2 != null) {
                closeConnection();
            }
            db = target;
            h2 = next;
            pending = Capture.register(h2);
            catalogVersion = -1;
        } catch (SQLException e) {
            throw SqlErrors.of(e, "USE");
        }
    }

    @Override
    public String database() {
        return db.name;
    }

    @Override
    public void batch(String sql, Results out) throws IOException, SqlServerError {
        run(sql, Map.of(), out);
    }

    @Override
    public void execute(String sql, String definitions, List<Param> params, Results out)
        throws IOException, SqlServerError {
        run(sql, values(definitions, params), out);
    }

    @Override
    public int prepare(String sql, String definitions) {
        int handle = handles.getAndIncrement();
        prepared.put(handle, new String[] {sql, definitions});
        return handle;
    }

    @Override
    public void executePrepared(int handle, List<Param> params, Results out) throws IOException, SqlServerError {
        String[] p = prepared.get(handle);
        if (p == null) {
            throw new SqlServerError(8179, 4, 16, "Could not find prepared statement with handle " + handle + ".");
        }
        run(p[0], values(p[1], params), out);
    }

    @Override
    public void unprepare(int handle) {
        prepared.remove(handle);
    }

    @Override
    public void call(String procedure, List<Param> params, Results out) throws IOException, SqlServerError {
        Procedures.call(this, procedure, params, out);
    }

    private void run(String sql, Map<String, Object> values, Results out) throws IOException, SqlServerError {
        if (GET_COLUMNS.matcher(sql).matches()) {
            statement(() -> Metadata.columns(this, values, out));
            return;
        }
        for (String s : SqlText.statements(sql)) {
            Commands.run(this, s, values, out);
        }
    }

    /** The values of {@code @name} parameters by lower-case name (positional ones take the definitions' names). */
    static Map<String, Object> values(String definitions, List<Param> params) {
        List<String> names = new ArrayList<>();
        if (definitions != null) {
            for (String d : TableDdl.split(definitions)) {
                String name = d.trim().split("\\s+")[0];
                names.add(name.replaceFirst("^@", "").toLowerCase(Locale.ROOT));
            }
        }
        Map<String, Object> out = new HashMap<>();
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            String name = p.name() == null || p.name().isEmpty() ? (i < names.size() ? names.get(i) : "p" + i)
                : p.name().replaceFirst("^@", "").toLowerCase(Locale.ROOT);
            out.put(name, p.value());
        }
        return out;
    }

    interface Work {
        void run() throws SQLException, IOException, SqlServerError;
    }

    /**
     * Runs one statement in SQL Server's transaction rules: outside a transaction it commits on success and rolls
     * back on failure (autocommit); with {@code IMPLICIT_TRANSACTIONS ON} it opens one; a deadlock ends it.
     */
    void statement(Work work) throws IOException, SqlServerError {
        statement(null, work);
    }

    /**
     * @param sql the statement's text (error messages name objects as it writes them); a {@code SELECT} without
     *            {@code FROM} does not open an implicit transaction, as on SQL Server
     */
    void statement(String sql, Work work) throws IOException, SqlServerError {
        boolean touchesData = sql == null || !NO_TABLE.matcher(SqlText.mask(sql)).matches();
        if (implicitTransactions && trancount == 0 && touchesData) {
            trancount = 1;
        }
        try {
            work.run();
            if (trancount == 0) {
                commit();
            }
        } catch (SQLException e) {
            SqlServerError error = SqlErrors.of(e, sql);
            failed(error);
            throw error;
        } catch (SqlServerError e) {
            failed(e);
            throw e;
        } catch (IllegalArgumentException e) {
            // the twin's own parsers (DDL, names, types) reject text SQL Server would call a syntax error
            String message = String.valueOf(e.getMessage()).trim();
            SqlServerError error = SqlErrors.syntax(message.substring(Math.max(message.lastIndexOf(' '),
                message.lastIndexOf(':')) + 1));
            failed(error);
            throw error;
        } catch (RuntimeException e) {
            SqlServerError error = new SqlServerError(50000, 1, 16, String.valueOf(e.getMessage()));
            failed(error);
            throw error;
        }
    }

    private void failed(SqlServerError e) throws SqlServerError {
        if (trancount == 0 || e.number() == 1205) {
            rollback();
        }
    }

    /** Runs translated H2 text with the named values bound; results streamed. */
    void runH2(String h2Sql, List<String> names, Map<String, Object> values, Results results)
        throws SQLException, IOException, SqlServerError {
        Results out = nocount ? new NoCount(results) : results;
        try (PreparedStatement st = h2.prepareStatement(h2Sql)) {
            for (int i = 0; i < names.size(); i++) {
                if (!values.containsKey(names.get(i))) {
                    throw new SqlServerError(137, 2, 15, "Must declare the scalar variable \"@" + names.get(i) + "\".");
                }
                Values.bind(st, i + 1, values.get(names.get(i)));
            }
            if (st.execute()) {
                try (ResultSet rs = st.getResultSet()) {
                    rowcount = Math.max(0, ResultWriter.write(rs, out, this));
                }
            } else {
                rowcount = st.getUpdateCount();
                out.done(rowcount);
            }
        }
    }

    @Override
    public TwinCatalog.Column find(String schema, String table, String column) throws SQLException {
        return declaredColumn(schema, table, column);
    }

    /** Error 229 when {@code DENY SELECT ON schema.table TO <this login>} is in force (sa is never denied). */
    @Override
    public void checkSelect(String schema, String table) throws SQLException, SqlServerError {
        refreshCaches();
        if ("sa".equalsIgnoreCase(login) || schema == null || table == null || table.isEmpty()) {
            return;
        }
        String key = (schema + "." + table).toLowerCase(Locale.ROOT);
        Boolean denied = deniedCache.get(key);
        if (denied == null) {
            denied = Permissions.denied(h2, schema, table, login);
            deniedCache.put(key, denied);
        }
        if (denied) {
            throw new SqlServerError(229, 5, 14, "The SELECT permission was denied on the object '" + table
                + "', database '" + db.name + "', schema '" + schema + "'.");
        }
    }

    private void refreshCaches() {
        long version = TwinCatalog.VERSION.get();
        if (version != catalogVersion) {
            declared.clear();
            deniedCache = new HashMap<>();
            catalogVersion = version;
        }
    }

    /** The declared columns of a table (cached per catalogue version), empty for one the twin did not create. */
    Map<String, TwinCatalog.Column> declaredColumns(String schema, String table) throws SQLException {
        refreshCaches();
        String key = (schema + "." + table).toLowerCase(Locale.ROOT);
        Map<String, TwinCatalog.Column> cols = declared.get(key);
        if (cols == null) {
            cols = TwinCatalog.columns(h2, schema, table);
            declared.put(key, cols);
        }
        return cols;
    }

    TwinCatalog.Column declaredColumn(String schema, String table, String column) throws SQLException {
        refreshCaches();
        Map<String, TwinCatalog.Column> cols = aliases.get(table.toLowerCase(Locale.ROOT));
        if (cols == null) {
            String key = (schema + "." + table).toLowerCase(Locale.ROOT);
            cols = declared.get(key);
            if (cols == null) {
                cols = TwinCatalog.columns(h2, schema, table);
                declared.put(key, cols);
            }
        }
        return cols.get(column.toLowerCase(Locale.ROOT));
    }

    /** COMMIT: stamps pending CDC / Change Tracking rows (one LSN, one version), then commits H2. */
    void commit() throws SqlServerError {
        try {
            Capture.commit(db, h2, pending);
            trancount = 0;
        } catch (SQLException e) {
            throw SqlErrors.of(e, "COMMIT");
        }
    }

    void rollback() throws SqlServerError {
        try {
            h2.rollback();
            pending.reset();
            trancount = 0;
        } catch (SQLException e) {
            throw SqlErrors.of(e, "ROLLBACK");
        }
    }

    private static final Pattern AT_AT = Pattern.compile("(?i)@@(TRANCOUNT|SPID|VERSION|ROWCOUNT|SERVERNAME|DBTS)\\b");
    private static final Pattern DB_NAME = Pattern.compile("(?i)\\bDB_NAME\\s*\\(\\s*\\)");

    /** Session values T-SQL reads as variables/functions, spliced as literals the twin itself wrote. */
    String sessionValues(String sql) {
        String s = SqlText.replace(sql, AT_AT, m -> switch (m.group(1).toUpperCase(Locale.ROOT)) {
            case "TRANCOUNT" -> String.valueOf(trancount);
            case "SPID" -> "CAST(" + spid + " AS SMALLINT)";
            case "ROWCOUNT" -> String.valueOf(rowcount);
            case "SERVERNAME" -> "N'mssql-twin'";
            case "DBTS" -> "CAST(twin_dbts() AS VARBINARY(8))";
            default -> "N" + Names.literal(VERSION);
        });
        return SqlText.replace(s, DB_NAME, m -> "N" + Names.literal(db.name));
    }

    static final String VERSION = "Microsoft SQL Server 2022 (RTM) - 16.0.1000.6 (X64) \n\tOct  8 2022 05:58:25 \n\t"
        + "Copyright (C) 2022 Microsoft Corporation\n\tDeveloper Edition (64-bit) on Linux (dpone mssql-twin over H2)";

    @Override
    public void close() {
        try {
            if (h2 != null && !h2.isClosed()) {
                h2.rollback();
            }
        } catch (SQLException ignored) {
            // the connection is going away
        }
        closeConnection();
    }

    private void closeConnection() {
        Capture.unregister(h2);
        try {
            h2.close();
        } catch (SQLException ignored) {
            // closing
        }
    }

    /** {@code SET NOCOUNT ON}: DONE tokens carry no row count (JDBC sees an update count of -1). */
    private record NoCount(Results out) implements Results {
        @Override
        public void columns(List<ResultColumn> columns) throws IOException {
            out.columns(columns);
        }

        @Override
        public void row(Object[] values) throws IOException {
            out.row(values);
        }

        @Override
        public void done(long count) throws IOException {
            out.done(-1);
        }

        @Override
        public void info(int number, String message) throws IOException {
            out.info(number, message);
        }

        @Override
        public boolean cancelled() {
            return out.cancelled();
        }
    }

    static Matcher match(Pattern p, String sql) {
        Matcher m = p.matcher(SqlText.mask(sql));
        return m.matches() ? m : null;
    }
}
