package io.dpone.source;

/**
 * The SQL Server catalogue queries the CDC promotion bundle ({@code io.dpone.cdc.bundle}) runs on a live stream's
 * source, read-only, in one place: the calls the live readers make, the capture and Change Tracking retention, and
 * the caller's permissions. Each answers on SQL Server and on the H2 emulations (the demo's {@code io.dpone.demo}
 * and the tests'), which define the same functions and views; a query the source does not answer is the check's to
 * report.
 */
public final class SqlServerCatalogSql {
    /** {@code sys.fn_cdc_get_min_lsn(ci)}: 0x00..00 when it does not exist or the caller may not read it. */
    public static final String CDC_MIN_LSN = "SELECT sys.fn_cdc_get_min_lsn(?)";
    /** The database's Change Tracking version, NULL when Change Tracking is off. */
    public static final String CT_CURRENT_VERSION = "SELECT CHANGE_TRACKING_CURRENT_VERSION()";
    /** The table's minimum valid version ({@code [schema].[table]}), NULL when the table is not tracked. */
    public static final String CT_MIN_VALID_VERSION = "SELECT CHANGE_TRACKING_MIN_VALID_VERSION(OBJECT_ID(?))";
    /** The retention in minutes of the database's CDC cleanup job; no row when there is no cleanup job. */
    public static final String CDC_CLEANUP_RETENTION = "SELECT retention FROM msdb.dbo.cdc_jobs "
        + "WHERE database_id = DB_ID() AND job_type = N'cleanup'";
    /**
     * The database's Change Tracking retention: {@code is_auto_cleanup_on}, {@code retention_period} and
     * {@code retention_period_units} (1 minutes, 2 hours, 3 days); no row when Change Tracking is off.
     */
    public static final String CT_RETENTION = "SELECT is_auto_cleanup_on, retention_period, retention_period_units "
        + "FROM sys.change_tracking_databases WHERE database_id = DB_ID()";
    /** 1 when the caller holds the permission (second parameter) on the object (first, {@code [s].[t]}), else 0. */
    public static final String HAS_PERMS_ON_OBJECT = "SELECT HAS_PERMS_BY_NAME(?, N'OBJECT', ?)";
    /** The gating role of a capture instance ({@code cdc.change_tables.role_name}), NULL when it has none. */
    public static final String CAPTURE_ROLE = "SELECT role_name FROM cdc.change_tables WHERE capture_instance = ?";
    /** 1 when the caller is a member of the database role, 0 when not, NULL when there is no such role. */
    public static final String IS_ROLE_MEMBER = "SELECT IS_ROLEMEMBER(?)";

    private SqlServerCatalogSql() {
    }
}
