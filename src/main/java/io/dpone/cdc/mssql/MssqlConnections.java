package io.dpone.cdc.mssql;

import io.dpone.connect.ConnectionSpec;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Opens the read-only JDBC connection of a live CDC reader from a resolved {@code mssql} alias: mssql-jdbc for
 * {@code jdbc:sqlserver:} URLs (adaptive buffering, direct select method, as the snapshot reader), H2 in
 * MSSQLServer mode for {@code jdbc:h2:} URLs (local runs and tests). Failures name the alias and the SQLState only.
 */
public final class MssqlConnections {
    private MssqlConnections() {
    }

    public static Connection open(ConnectionSpec spec) {
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
            props.setProperty("applicationName", "dpone-cdc");
        }
        try {
            Connection c = DriverManager.getConnection(url, props);
            c.setReadOnly(true);
            return c;
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.CONNECTION_FAILED, spec.alias(),
                "cannot connect to source alias '" + spec.alias() + "' (SQLState " + e.getSQLState() + ")");
        }
    }
}
