package io.dpone.cdc.mssql;

import io.dpone.source.SqlServerDialect;
import java.util.List;

/**
 * The T-SQL a {@link SqlServerCdcReader} runs against a capture instance's change table {@code cdc.<ci>_CT}. Every
 * identifier is validated and bracket-quoted; every value (LSNs, seqval, command id, operation) is a parameter;
 * the row limit is a number. Rows are ordered by {@code __$start_lsn, __$command_id, __$seqval, __$operation}
 * (the change table's clustered key), never by {@code __$seqval} alone.
 */
final class ChangeTableSql {
    static final String MIN_LSN = "SELECT sys.fn_cdc_get_min_lsn(?)";
    static final String MAX_LSN = "SELECT sys.fn_cdc_get_max_lsn()";
    /** The capture instances of one table and their start LSNs; parameter: the quoted {@code [schema].[table]}. */
    static final String INSTANCES = "SELECT capture_instance, start_lsn FROM cdc.change_tables WHERE source_object_id "
        + "= OBJECT_ID(?)";

    /** The LSN {@code sql} ({@link #MIN_LSN} or {@link #MAX_LSN}) returns, {@code parameter} bound when given. */
    static Lsn lsn(java.sql.Connection c, String sql, String parameter) throws java.sql.SQLException {
        try (java.sql.PreparedStatement st = c.prepareStatement(sql)) {
            if (parameter != null) {
                st.setString(1, parameter);
            }
            try (java.sql.ResultSet rs = st.executeQuery()) {
                return rs.next() ? Lsn.of(rs.getBytes(1)) : null;
            }
        }
    }
    static final String ORDER = " ORDER BY [__$start_lsn], [__$command_id], [__$seqval], [__$operation]";
    /** Columns before the payload, in select order. */
    static final String META = "[__$start_lsn], [__$command_id], [__$seqval], [__$operation]";

    private final String select;

    /** {@code payload}: the select-list items of the payload columns (quoted names, or conversions aliased). */
    ChangeTableSql(String captureInstance, List<String> payload) {
        this.select = " " + META + (payload.isEmpty() ? "" : ", " + String.join(", ", payload))
            + " FROM [cdc]." + SqlServerDialect.quote(captureInstance + "_CT");
    }

    /** The schema and table of the change table, as JDBC metadata names it. */
    static String changeTable(String captureInstance) {
        return captureInstance + "_CT";
    }

    /** Rows of one LSN after a resume point; parameters: lsn, command_id (x2), seqval (x2), operation. */
    String insideLsn(int limit) {
        return "SELECT TOP (" + limit + ")" + select + " WHERE [__$start_lsn] = ? AND ([__$command_id] > ?"
            + " OR ([__$command_id] = ? AND ([__$seqval] > ? OR ([__$seqval] = ? AND [__$operation] > ?))))" + ORDER;
    }

    /** Rows of the LSNs in {@code (after, upTo]}; parameters: after, upTo. */
    String afterLsn(int limit) {
        return "SELECT TOP (" + limit + ")" + select + " WHERE [__$start_lsn] > ? AND [__$start_lsn] <= ?" + ORDER;
    }

    /** Rows of the LSNs in {@code [from, upTo]} (the first tick); parameters: from, upTo. */
    String fromLsn(int limit) {
        return "SELECT TOP (" + limit + ")" + select + " WHERE [__$start_lsn] >= ? AND [__$start_lsn] <= ?" + ORDER;
    }
}
