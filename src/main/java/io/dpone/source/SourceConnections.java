package io.dpone.source;

import io.dpone.connect.ConnectionHints;
import io.dpone.connect.ConnectionSpec;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens a read-only JDBC connection from a resolved {@code mssql} alias: mssql-jdbc for {@code jdbc:sqlserver:}
 * URLs (adaptive buffering, direct select method), H2 in MSSQLServer mode for {@code jdbc:h2:} URLs (local runs
 * and tests). Failures name the alias and the SQLState only. Shared by the snapshot reader and the live CDC
 * readers.
 */
public final class SourceConnections {
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
        if (url.startsWith("jdbc:sqlserver:")) {
            props.setProperty("responseBuffering", "adaptive");
            props.setProperty("selectMethod", "direct");
            props.setProperty("applicationName", applicationName);
        }
        try {
            Connection c = DriverManager.getConnection(url, props);
            c.setReadOnly(true);
            return c;
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.CONNECTION_FAILED, spec.alias(),
                "cannot connect to source alias '" + spec.alias() + "' (SQLState " + e.getSQLState() + "): "
                    + nextStep(spec, e));
        }
    }
}
