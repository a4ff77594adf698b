package io.dpone.source;

import io.dpone.connect.ConnectionHints;
import io.dpone.connect.ConnectionSpec;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.ShortDuration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * Opens a read-only JDBC connection from a resolved {@code mssql} alias: mssql-jdbc for {@code jdbc:sqlserver:}
 * URLs (adaptive buffering, direct select method), H2 in MSSQLServer mode for {@code jdbc:h2:} URLs (local runs
 * and tests). Failures name the alias and the SQLState only. Shared by the snapshot reader and the live CDC
 * readers.
 *
 * <p>Every wait on a SQL Server is bounded (docs/connections.md, "Timeouts"): the login (mssql-jdbc
 * {@code loginTimeout}, which covers the TCP connect, PRELOGIN, TLS and LOGIN7), the silence of the socket while a
 * response is read ({@code socketTimeout}) and the wait for a statement's first answer ({@code queryTimeout}).
 * Each comes from the alias's {@code options} ({@code login_timeout}, {@code socket_timeout}, {@code query_timeout}),
 * else the environment ({@code DPONE_MSSQL_LOGIN_TIMEOUT}, ...), else the default below.
 */
public final class SourceConnections {
    /** A server that accepts the connection and never answers the login costs at most this long. */
    public static final Duration DEFAULT_LOGIN_TIMEOUT = Duration.ofSeconds(15);
    /** How long a statement may wait for its first answer (the server's plan, a sort) before it is cancelled. */
    public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofMinutes(30);
    /** How long a response may stay silent mid-read; above the query timeout, so a slow query is cancelled first. */
    public static final Duration DEFAULT_SOCKET_TIMEOUT = Duration.ofMinutes(35);

    private SourceConnections() {
    }

    /** What to check, by the failure's class: no answer, a refused login, a local database that is not there. */
    static String nextStep(ConnectionSpec spec, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        boolean h2 = spec.url().startsWith("jdbc:h2:");
        if (h2 && e.getErrorCode() == 90146) {
            return "the local database file does not exist; for the embedded default run 'dpone demo seed' first";
        }
        if (state.startsWith("08")) {
            return ConnectionHints.unreachable(spec, "SQL Server");
        }
        if (state.startsWith("28") || e.getErrorCode() == 18456) {
            return ConnectionHints.refused(spec);
        }
        return ConnectionHints.either(spec, "SQL Server");
    }

    /** The bounds of one alias's waits, resolved from its options, the environment and the defaults. */
    public record Timeouts(Duration login, Duration socket, Duration query) {
        public static Timeouts of(ConnectionSpec spec, Map<String, String> env) {
            return new Timeouts(
                bound(spec, env, "login_timeout", "DPONE_MSSQL_LOGIN_TIMEOUT", DEFAULT_LOGIN_TIMEOUT, Duration.ofSeconds(1)),
                bound(spec, env, "socket_timeout", "DPONE_MSSQL_SOCKET_TIMEOUT", DEFAULT_SOCKET_TIMEOUT, Duration.ofMillis(1)),
                bound(spec, env, "query_timeout", "DPONE_MSSQL_QUERY_TIMEOUT", DEFAULT_QUERY_TIMEOUT, Duration.ofSeconds(1)));
        }

        private static Duration bound(ConnectionSpec spec, Map<String, String> env, String option, String variable,
                                      Duration fallback, Duration unit) {
            String text = spec.option(option, null);
            String where = "options." + option;
            if (text == null) {
                text = env.get(variable);
                where = variable;
            }
            if (text == null || text.isBlank()) {
                return fallback;
            }
            String w = where;
            Duration d = ShortDuration.parse(text.trim()).filter(x -> x.compareTo(unit) >= 0)
                .orElseThrow(() -> new DponeException(BlockerCode.CONNECTION_CONTEXT_INVALID, spec.alias(),
                    "mssql connection '" + spec.alias() + "': " + w + " must be a duration of at least "
                        + (unit.toMillis() >= 1000 ? unit.toSeconds() + "s" : unit.toMillis() + "ms")
                        + " such as 15s or 10m"));
            return d;
        }
    }

    /** {@code applicationName} is what SQL Server shows for the session ({@code dpone}, {@code dpone-cdc}). */
    public static Connection open(ConnectionSpec spec, String applicationName) {
        String url = spec.url();
        if (url == null || !(url.startsWith("jdbc:sqlserver:") || url.startsWith("jdbc:h2:"))) {
            throw new DponeException(BlockerCode.CONNECTION_FAILED, spec.alias(),
                "mssql connections need a jdbc:sqlserver: URL (or a jdbc:h2: URL in MODE=MSSQLServer for local runs)");
        }
        Properties props = new Properties();
        if (spec.user() != null) {
            props.setProperty("user", spec.user());
        }
        if (spec.password() != null) {
            props.setProperty("password", spec.password().reveal());
        }
        Timeouts timeouts = null;
        if (url.startsWith("jdbc:sqlserver:")) {
            timeouts = Timeouts.of(spec, System.getenv());
            props.setProperty("responseBuffering", "adaptive");
            props.setProperty("selectMethod", "direct");
            props.setProperty("applicationName", applicationName);
            props.setProperty("loginTimeout", String.valueOf(Math.max(1, timeouts.login().toSeconds())));
            props.setProperty("socketTimeout", String.valueOf(Math.min(Integer.MAX_VALUE, timeouts.socket().toMillis())));
            props.setProperty("queryTimeout", String.valueOf(Math.max(1, timeouts.query().toSeconds())));
        }
        long started = System.nanoTime();
        try {
            Connection c = DriverManager.getConnection(url, props);
            c.setReadOnly(true);
            return c;
        } catch (SQLException e) {
            String bound = "";
            if (timeouts != null && System.nanoTime() - started >= timeouts.login().toNanos() - 250_000_000L) {
                bound = "; no answer within login_timeout " + timeouts.login().toSeconds() + "s";
            }
            String message = "cannot connect to source alias '" + spec.alias() + "' (SQLState " + e.getSQLState()
                + bound + "): " + nextStep(spec, e);
            // a refused or timed-out connect is worth another try where a retry budget runs (a re-read range)
            throw io.dpone.retry.TransientFaults.isTransientSql(e)
                ? new io.dpone.retry.TransientFailure(BlockerCode.CONNECTION_FAILED, spec.alias(), message)
                : new DponeException(BlockerCode.CONNECTION_FAILED, spec.alias(), message);
        }
    }
}
