package io.dpone.cdc.mssql;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.StreamIdentity;
import io.dpone.error.DponeException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one statement dpone runs on a CDC source, and only when the stream allows it ({@code cdc-runtime-run
 * --allow-capture-instance-ddl}, a serve stream's {@code allow_capture_instance_ddl: true}): a table's second capture
 * instance, created when the instance the stream reads no longer matches the table and the table has no later one
 * (docs/cdc.md, "Schema changes").
 *
 * <p>{@code sys.sp_cdc_enable_table} through the JDBC call escape, every value a parameter: the table's schema and
 * name, the new instance's name ({@link #nextName}: deterministic, validated as an identifier, never spliced), and the
 * settings of the instance being read, repeated ({@code role_name}, {@code supports_net_changes}, {@code index_name},
 * {@code filegroup_name}, read from {@code cdc.change_tables}); {@code @captured_column_list} is NULL, so the new
 * instance captures every column the table has now.
 */
final class CaptureInstanceDdl {
    /** The settings of a capture instance that its successor repeats; parameter: the instance's name. */
    static final String SETTINGS = "SELECT role_name, supports_net_changes, index_name, filegroup_name "
        + "FROM cdc.change_tables WHERE capture_instance = ?";
    /**
     * {@code sys.sp_cdc_enable_table} by position: {@code @source_schema, @source_name, @role_name, @capture_instance,
     * @supports_net_changes, @index_name, @captured_column_list, @filegroup_name}.
     */
    static final String ENABLE = "{call sys.sp_cdc_enable_table(?, ?, ?, ?, ?, ?, ?, ?)}";
    /** SQL Server's limit on a capture instance's name. */
    static final int MAX_NAME = 100;
    private static final Pattern GENERATION = Pattern.compile("^(.*)_v([0-9]{1,9})$");

    private CaptureInstanceDdl() {
    }

    /**
     * The name of the instance that follows {@code current}: {@code <current>_v2}, or {@code <base>_v<n+1>} when
     * {@code current} is already {@code <base>_v<n>} ({@code dbo_orders} -> {@code dbo_orders_v2} ->
     * {@code dbo_orders_v3}); the base is shortened to keep the name within {@value #MAX_NAME} characters. The same
     * instance always gets the same successor's name, so a tick that finds it created (a crash after the DDL) uses it.
     *
     * @throws IllegalArgumentException when the result is not an identifier
     */
    static String nextName(String current) {
        Matcher m = GENERATION.matcher(current);
        String base = m.matches() ? m.group(1) : current;
        String suffix = "_v" + (m.matches() ? Long.parseLong(m.group(2)) + 1 : 2);
        if (base.length() + suffix.length() > MAX_NAME) {
            base = base.substring(0, MAX_NAME - suffix.length());
        }
        String name = base + suffix;
        if (!io.dpone.manifest.Identifier.PATTERN.matcher(name).matches()) {
            throw new IllegalArgumentException("not an identifier");
        }
        return name;
    }

    /**
     * Creates capture instance {@code name} of {@code stream}'s table with the settings of {@code current}.
     *
     * @throws SQLException when the server refuses (a permission, the name taken, a third instance): the caller
     *                      looks for the successor again before it reports the failure
     */
    static void enable(Connection connection, StreamIdentity stream, String current, String name) throws SQLException {
        Map<String, Object> settings = settings(connection, current);
        boolean readOnly = connection.isReadOnly();
        if (readOnly) {
            connection.setReadOnly(false);
        }
        try (CallableStatement st = connection.prepareCall(ENABLE)) {
            st.setString(1, stream.sourceSchema());
            st.setString(2, stream.sourceTable());
            text(st, 3, (String) settings.get("role_name"));
            st.setString(4, name);
            Object net = settings.get("supports_net_changes");
            if (net == null) {
                st.setNull(5, Types.BIT);
            } else {
                st.setBoolean(5, (Boolean) net);
            }
            text(st, 6, (String) settings.get("index_name"));
            st.setNull(7, Types.NVARCHAR);
            text(st, 8, (String) settings.get("filegroup_name"));
            st.execute();
        } finally {
            if (readOnly) {
                connection.setReadOnly(true);
            }
        }
    }

    private static void text(CallableStatement st, int at, String value) throws SQLException {
        if (value == null) {
            st.setNull(at, Types.NVARCHAR);
        } else {
            st.setString(at, value);
        }
    }

    private static Map<String, Object> settings(Connection connection, String instance) throws SQLException {
        try (PreparedStatement st = connection.prepareStatement(SETTINGS)) {
            st.setString(1, instance);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    throw CdcBlockers.failure(CdcBlockers.SOURCE_NOT_ENABLED, "source.cdc." + instance,
                        "capture instance " + instance + " is not in cdc.change_tables; its settings cannot be "
                            + "repeated for its second capture instance");
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("role_name", rs.getString(1));
                boolean net = rs.getBoolean(2);
                out.put("supports_net_changes", rs.wasNull() ? null : net);
                out.put("index_name", rs.getString(3));
                out.put("filegroup_name", rs.getString(4));
                return out;
            }
        }
    }

    /** The blocker of a second capture instance dpone could not create (the server's error number, never its text). */
    static DponeException failed(StreamIdentity stream, String current, String name, SQLException e) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("capture_instance", current);
        details.put("new_capture_instance", name);
        details.put("sql_state", e.getSQLState());
        details.put("error_code", e.getErrorCode());
        return new DponeException(CdcBlockers.blocker(CdcBlockers.SCHEMA_CHANGED, "source.cdc." + current,
            "capture instance " + current + " no longer matches " + stream.sourceTableName() + " and dpone could not "
                + "create its second capture instance " + name + " (--allow-capture-instance-ddl; SQLState "
                + e.getSQLState() + ", error " + e.getErrorCode() + "): the source alias needs db_owner to run "
                + "sys.sp_cdc_enable_table, and the table at most one other capture instance. Nothing was read. "
                + "Grant it, or create the instance yourself (docs/cdc.md, \"Schema changes\"), and run the tick "
                + "again", details));
    }
}
