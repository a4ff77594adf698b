package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code DENY SELECT ON [OBJECT::]t TO p}, and {@code GRANT}/{@code REVOKE SELECT ON t TO|FROM p} (both lift the
 * deny): enough to make a read fail with error 229 for a login. Only SELECT on tables is modelled; a result column
 * that does not come from a table column (an aggregate) is not checked.
 */
final class Permissions {
    private static final Pattern STATEMENT = Pattern.compile("(?is)\\s*(DENY|GRANT|REVOKE)\\s+SELECT\\s+ON\\s+"
        + "(?:OBJECT\\s*::\\s*)?(" + SqlText.NAME + ")\\s+(?:TO|FROM)\\s+(" + SqlText.NAME + ")\\s*");

    private Permissions() {
    }

    static boolean matches(String sql) {
        return STATEMENT.matcher(SqlText.mask(sql)).matches();
    }

    static void run(EngineSession s, String sql) throws SQLException, SqlServerError {
        Matcher m = EngineSession.match(STATEMENT, sql);
        Names.Table t = Names.table(sql.substring(m.start(2), m.end(2)));
        String principal = Names.parts(sql.substring(m.start(3), m.end(3))).get(0);
        if (TwinFunctions.objectId(s.h2, t.toString(), null) == null) {
            throw new SqlServerError(15151, 1, 16, "Cannot find the object '" + t.name() + "', because it does not "
                + "exist or you do not have permission.");
        }
        Names.Table actual = Cdc.canonical(s.h2, t.schema(), t.name());
        try (PreparedStatement st = s.h2.prepareStatement(m.group(1).equalsIgnoreCase("DENY")
            ? "MERGE INTO twin_catalog.denied KEY (table_schema, table_name, principal) VALUES (?, ?, ?)"
            : "DELETE FROM twin_catalog.denied WHERE table_schema = ? AND table_name = ? AND principal = ?")) {
            st.setString(1, actual.schema().toLowerCase(Locale.ROOT));
            st.setString(2, actual.name().toLowerCase(Locale.ROOT));
            st.setString(3, principal.toLowerCase(Locale.ROOT));
            st.executeUpdate();
        }
        TwinCatalog.VERSION.incrementAndGet();
    }

    static boolean denied(Connection c, String schema, String table, String login) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM twin_catalog.denied WHERE table_schema = ? AND "
            + "table_name = ? AND principal = ?")) {
            st.setString(1, schema.toLowerCase(Locale.ROOT));
            st.setString(2, table.toLowerCase(Locale.ROOT));
            st.setString(3, login.toLowerCase(Locale.ROOT));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }
}
