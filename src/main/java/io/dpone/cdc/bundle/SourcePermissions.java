package io.dpone.cdc.bundle;

import io.dpone.cdc.bundle.Findings.Lane;
import io.dpone.cdc.mssql.SqlServerCdcReader;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.source.SqlServerCatalogSql;
import io.dpone.source.SqlServerDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code source_permissions}: what the live reader needs of the source alias's user, asked with
 * {@code HAS_PERMS_BY_NAME} and {@code IS_ROLEMEMBER} (SQL Server's, or the H2 emulation's {@code
 * io.dpone.demo.DemoPermissions}):
 * <ul>
 *   <li>{@code mssql_cdc}: {@code SELECT} on the change table {@code cdc.[<capture_instance>_CT]} (the reader reads
 *       it), and, when the capture instance has a gating role ({@code cdc.change_tables.role_name}), membership of
 *       that role or of {@code db_owner} ({@code sys.fn_cdc_get_min_lsn} answers 0x00 to anyone else); with
 *       {@code --allow-capture-instance-ddl}, membership of {@code db_owner} ({@code sys.sp_cdc_enable_table} needs
 *       it);</li>
 *   <li>{@code mssql_change_tracking}: {@code SELECT} and {@code VIEW CHANGE TRACKING} on the table.</li>
 * </ul>
 * {@code skipped} when the source does not answer {@code HAS_PERMS_BY_NAME}, or (CDC) when the capture instance does
 * not exist and no gating role explains it.
 */
final class SourcePermissions {
    static final String ID = "source_permissions";
    /** The permission, named apart so that no text of this package reads as a statement. */
    private static final String SELECT = "SELECT";

    private final CdcRunOptions options;
    private final Findings findings;

    SourcePermissions(CdcRunOptions options, Findings findings) {
        this.options = options;
        this.findings = findings;
    }

    /** {@code captured}: the capture_enabled check passed. */
    void check(Connection c, Lane l, boolean captured) {
        try {
            if (SqlServerCdcReader.BACKEND.equals(options.backend())) {
                cdc(c, l, captured);
            } else {
                changeTracking(c, l);
            }
        } catch (SQLException e) {
            findings.skip(ID, "the source does not answer HAS_PERMS_BY_NAME (SQLState " + e.getSQLState() + "): the "
                + "source alias's permissions are not checked");
        }
    }

    private void cdc(Connection c, Lane l, boolean captured) throws SQLException {
        String ci = l.captureInstance();
        String changeTable = "cdc." + SqlServerDialect.quote(ci + "_CT");
        Long select = SourceCatalogue.number(c, SqlServerCatalogSql.HAS_PERMS_ON_OBJECT, changeTable, SELECT);
        String role = null;
        boolean roleRead = true;
        try {
            role = SourceCatalogue.text(c, SqlServerCatalogSql.CAPTURE_ROLE, ci);
        } catch (SQLException e) {
            roleRead = false; // no SELECT on cdc.change_tables (or an emulation without role_name): not known here
        }
        // db_owner is asked only when it matters: a gating role, or a stream that may create capture instances
        boolean owner = (role != null || options.allowCaptureInstanceDdl())
            && one(SourceCatalogue.scalar(c, SqlServerCatalogSql.IS_ROLE_MEMBER, "db_owner"));
        boolean member = role == null || owner || one(SourceCatalogue.scalar(c, SqlServerCatalogSql.IS_ROLE_MEMBER,
            role));
        if (!captured && select == null && member) {
            findings.skip(ID, "capture instance " + ci + " does not exist: its permissions are not checked");
            return;
        }
        List<Blocker> found = new ArrayList<>();
        if (!member) {
            found.add(blocker("source.cdc." + ci, "the source alias's user is not a member of capture instance "
                + ci + "'s gating role " + role + " (nor of db_owner): sys.fn_cdc_get_min_lsn answers 0x00 to it and "
                + "its changes are not readable; add the user to the role (ALTER ROLE ... ADD MEMBER)",
                List.of("member of " + role)));
        }
        if (options.allowCaptureInstanceDdl() && !owner) {
            found.add(blocker("source.cdc." + ci, "the stream may create a second capture instance "
                + "(--allow-capture-instance-ddl, allow_capture_instance_ddl), which sys.sp_cdc_enable_table allows "
                + "only to db_owner, and the source alias's user is not a member of db_owner; add it (ALTER ROLE "
                + "db_owner ADD MEMBER ...) or run the stream without the flag", List.of("member of db_owner")));
        }
        if (!one(select)) {
            found.add(blocker("source.cdc." + ci, "the source alias's user lacks SELECT on the change table "
                + changeTable + ", which the live reader reads; grant it (GRANT SELECT ON " + changeTable + " TO ...)"
                + (role == null ? "" : " or through the gating role " + role), List.of(SELECT + " on " + changeTable)));
        }
        if (!found.isEmpty()) {
            findings.fail(ID, "the source alias cannot read capture instance " + ci, found);
            return;
        }
        findings.pass(ID, SELECT + " on " + changeTable + (role != null ? ", member of gating role " + role
            : roleRead ? ", no gating role" : "; gating role not read (cdc.change_tables.role_name not readable); "
                + "sys.fn_cdc_get_min_lsn answered, so the caller passes it"));
    }

    private void changeTracking(Connection c, Lane l) throws SQLException {
        String object = SqlServerDialect.quote(l.schema()) + "." + SqlServerDialect.quote(l.table());
        List<String> missing = new ArrayList<>();
        for (String permission : List.of(SELECT, "VIEW CHANGE TRACKING")) {
            if (!one(SourceCatalogue.number(c, SqlServerCatalogSql.HAS_PERMS_ON_OBJECT, object, permission))) {
                missing.add(permission);
            }
        }
        if (missing.isEmpty()) {
            findings.pass(ID, SELECT + " and VIEW CHANGE TRACKING on " + object);
            return;
        }
        findings.fail(ID, "the source alias lacks " + String.join(", ", missing) + " on " + object, List.of(
            blocker("source.change_tracking." + l.name(), "the source alias's user lacks "
                + String.join(" and ", missing) + " on " + object + ", which the Change Tracking reader needs; grant "
                + "it (GRANT " + String.join(", ", missing) + " ON " + object + " TO ...)", missing)));
    }

    private static Blocker blocker(String subject, String message, List<String> missing) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("missing", missing);
        return Blocker.of(BlockerCode.CDC_BUNDLE_SOURCE_PERMISSION_MISSING, subject, message, details);
    }

    private static boolean one(Long v) {
        return v != null && v == 1;
    }
}
