package io.dpone.cdc.bundle;

import io.dpone.cdc.mssql.SqlServerCdcReader;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.source.SqlServerCatalogSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code cleanup_retention}: the source keeps changes at least twice the stream's tick interval, so a tick that is
 * late once still finds every change it had not read. {@code mssql_cdc}: the database's capture cleanup job
 * ({@code msdb.dbo.cdc_jobs}, {@code job_type = 'cleanup'}); {@code mssql_change_tracking}: the database's
 * {@code CHANGE_RETENTION} ({@code sys.change_tracking_databases}), when its auto cleanup is on. Skipped when the
 * source alias cannot read the catalogue view; passed without a comparison when the interval is unknown.
 */
final class RetentionCheck {
    static final String ID = "cleanup_retention";

    private final CdcRunOptions options;
    private final Findings findings;
    private final Duration tickInterval;

    RetentionCheck(CdcRunOptions options, Findings findings, Duration tickInterval) {
        this.options = options;
        this.findings = findings;
        this.tickInterval = tickInterval;
    }

    void run(Connection c) {
        if (SqlServerCdcReader.BACKEND.equals(options.backend())) {
            cleanupJob(c);
        } else {
            changeRetention(c);
        }
    }

    private void cleanupJob(Connection c) {
        Long minutes = null;
        try (PreparedStatement st = c.prepareStatement(SqlServerCatalogSql.CDC_CLEANUP_RETENTION);
             ResultSet rs = st.executeQuery()) {
            if (rs.next()) {
                minutes = rs.getLong(1);
            }
        } catch (SQLException e) {
            findings.skip(ID, "msdb.dbo.cdc_jobs is not readable by the source alias (SQLState " + e.getSQLState()
                + "): the cleanup job's retention is not checked; grant SELECT on it to check it");
            return;
        }
        if (minutes == null) {
            findings.pass(ID, "no CDC cleanup job for this database: captured changes are not cleaned up");
            return;
        }
        compare(Duration.ofMinutes(minutes), "the cleanup job keeps changes " + minutes + " minute(s)",
            "the capture cleanup job keeps changes " + minutes + " minute(s)", "a tick late once may find changes it "
                + "had not read cleaned up (cdc_runtime.cdc_resync_required); raise the job's retention "
                + "(sys.sp_cdc_change_job @job_type = N'cleanup', @retention = MINUTES) or tick more often");
    }

    private void changeRetention(Connection c) {
        boolean auto;
        long period;
        int units;
        try (PreparedStatement st = c.prepareStatement(SqlServerCatalogSql.CT_RETENTION);
             ResultSet rs = st.executeQuery()) {
            if (!rs.next()) {
                findings.skip(ID, "Change Tracking is not on for the database (capture_enabled): its retention is "
                    + "not checked");
                return;
            }
            auto = rs.getBoolean(1);
            period = rs.getLong(2);
            units = rs.getInt(3);
        } catch (SQLException e) {
            findings.skip(ID, "sys.change_tracking_databases is not readable by the source alias (SQLState "
                + e.getSQLState() + "): the Change Tracking retention is not checked");
            return;
        }
        String[] unitNames = {"minute(s)", "hour(s)", "day(s)"};
        if (units < 1 || units > 3) {
            findings.skip(ID, "sys.change_tracking_databases gives retention unit " + units + ", not minutes, "
                + "hours or days: not checked");
            return;
        }
        String kept = period + " " + unitNames[units - 1];
        if (!auto) {
            findings.pass(ID, "Change Tracking's auto cleanup is off for the database: tracked changes are kept "
                + "(CHANGE_RETENTION " + kept + " applies once it is on)");
            return;
        }
        Duration retention = units == 1 ? Duration.ofMinutes(period)
            : units == 2 ? Duration.ofHours(period) : Duration.ofDays(period);
        compare(retention, "Change Tracking keeps changes " + kept, "the database's Change Tracking keeps changes "
            + kept + " (CHANGE_RETENTION)", "a tick late once may find its version below "
                + "CHANGE_TRACKING_MIN_VALID_VERSION (cdc_runtime.change_tracking_resync_required); raise it (ALTER "
                + "DATABASE ... SET CHANGE_TRACKING (CHANGE_RETENTION = N DAYS)) or tick more often");
    }

    /** Passes when {@code retention} is at least twice the tick interval (or the interval is unknown). */
    private void compare(Duration retention, String kept, String keptLong, String wayOut) {
        if (tickInterval == null) {
            findings.pass(ID, kept + "; no tick interval given (--tick-interval): not compared");
            return;
        }
        if (retention.compareTo(tickInterval.multipliedBy(2)) >= 0) {
            findings.pass(ID, kept + ", at least twice the tick interval " + tickInterval);
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("retention_minutes", retention.toMinutes());
        details.put("tick_interval_seconds", tickInterval.toSeconds());
        findings.fail(ID, kept + ", less than twice the tick interval " + tickInterval, List.of(Blocker.of(
            BlockerCode.CDC_BUNDLE_RETENTION_TOO_SHORT, ID, keptLong + ", less than twice the stream's tick interval "
                + tickInterval + ": " + wayOut, details)));
    }
}
