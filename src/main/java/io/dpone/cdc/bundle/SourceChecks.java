package io.dpone.cdc.bundle;

import io.dpone.cdc.CdcBlockers;
import io.dpone.cdc.bundle.Findings.Lane;
import io.dpone.cdc.bundle.SourceCatalogue.Meta;
import io.dpone.cdc.mssql.Lsn;
import io.dpone.cdc.mssql.SqlServerCdcReader;
import io.dpone.cdc.runtime.CdcRunOptions;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionSpec;
import io.dpone.connect.ConnectionType;
import io.dpone.connect.Redactor;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.source.SqlServerCatalogSql;
import io.dpone.source.SqlServerDialect;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The source checks of a bundle, on one read-only connection: {@code source_reachable}; per table
 * {@code source_table}, {@code capture_enabled}, {@code source_permissions} ({@link SourcePermissions}),
 * {@code unique_keys} and {@code column_types} ({@link KeyAndTypeChecks}); then the stream's
 * {@code cleanup_retention} ({@link RetentionCheck}). Each table's source facts (what the digest pins) are returned.
 */
final class SourceChecks {
    /** The checks run once per table, in order. */
    static final List<String> TABLE_CHECKS = List.of("source_table", "capture_enabled", "source_permissions",
        "unique_keys", "column_types");

    private final CdcRunOptions options;
    private final ConnectionContext context;
    private final Findings findings;
    private final Duration tickInterval;
    /** The catalogue read in progress, named in a failure. */
    private String reading = "the table's columns";

    SourceChecks(CdcRunOptions options, ConnectionContext context, Findings findings, Duration tickInterval) {
        this.options = options;
        this.context = context;
        this.findings = findings;
        this.tickInterval = tickInterval;
    }

    private boolean cdc() {
        return SqlServerCdcReader.BACKEND.equals(options.backend());
    }

    /** Every source check; puts each table's source facts (null when unread) into {@code facts}, by name. */
    void run(Map<String, Map<String, Object>> facts) {
        ConnectionSpec spec;
        Connection c;
        try {
            spec = context.resolve(options.sourceConnectionId(), ConnectionType.MSSQL, "--source-connection-id");
            c = io.dpone.source.SourceConnections.open(spec, "dpone-cdc-bundle");
        } catch (DponeException e) {
            findings.fail("source_reachable", "source alias " + options.sourceConnectionId() + " did not open",
                List.of(Blocker.of(BlockerCode.CDC_BUNDLE_SOURCE_UNREACHABLE, "--source-connection-id",
                    "source alias '" + options.sourceConnectionId() + "' did not open: "
                        + e.blockers().get(0).code() + ": " + e.blockers().get(0).message())));
            skipAll("the source did not open");
            return;
        }
        try (c) {
            try {
                c.setReadOnly(true);
            } catch (SQLException e) {
                // a driver that cannot mark the session read-only still reads only: the checks never write
            }
            findings.pass("source_reachable", "source alias " + options.sourceConnectionId() + " opened read-only");
            findings.eachLane(l -> facts.put(l.name(), tableChecks(c, l)));
            new RetentionCheck(options, findings, tickInterval).run(c);
        } catch (SQLException e) {
            // closing the connection failed: every table's checks already ran
        } catch (RuntimeException e) {
            findings.fail("source_catalogue", "the source's catalogue could not be read", List.of(Blocker.of(
                BlockerCode.SOURCE_READ_FAILED, "--source-connection-id", Redactor.global().describe(e))));
        }
    }

    /** Every table's checks and the retention check skipped. */
    void skipAll(String why) {
        findings.eachLane(l -> TABLE_CHECKS.forEach(id -> findings.skip(id, why)));
        findings.skip("cleanup_retention", why);
    }

    /** One table's source checks; returns its source facts, or null when the table could not be read. */
    private Map<String, Object> tableChecks(Connection c, Lane l) {
        try {
            return sourceFacts(c, l);
        } catch (SQLException e) {
            findings.fail("source_catalogue", "the source's catalogue could not be read", List.of(Blocker.of(
                BlockerCode.SOURCE_READ_FAILED, "source." + l.name(), "cannot read the catalogue of " + l.name()
                    + " (" + reading + ", SQLState " + e.getSQLState() + ")")));
            return null;
        } catch (RuntimeException e) {
            findings.fail("source_catalogue", "the source's catalogue could not be read", List.of(Blocker.of(
                BlockerCode.SOURCE_READ_FAILED, "source." + l.name(), Redactor.global().describe(e))));
            return null;
        }
    }

    private Map<String, Object> sourceFacts(Connection c, Lane l) throws SQLException {
        String where = l.name();
        DatabaseMetaData md = c.getMetaData();
        reading = "the table's columns";
        List<Meta> tableColumns = SourceCatalogue.columns(md, l.schema(), l.table());
        if (tableColumns.isEmpty()) {
            findings.fail("source_table", where + " does not exist or is not visible to the source alias",
                List.of(Blocker.of(BlockerCode.SOURCE_TABLE_MISSING, "source." + where, where
                    + " does not exist (or the source alias cannot see it)")));
            TABLE_CHECKS.subList(1, TABLE_CHECKS.size()).forEach(id -> findings.skip(id, "the table does not exist"));
            return null;
        }
        findings.pass("source_table", where + " has " + tableColumns.size() + " columns");
        reading = "the table's primary key";
        List<String> primaryKey = io.dpone.source.PrimaryKeys.of(md, l.schema(), l.table());
        List<Meta> captured = cdc() ? cdcCaptured(c, md, l, tableColumns) : ctCaptured(c, l, tableColumns, primaryKey);
        reading = "the source alias's permissions";
        new SourcePermissions(options, findings).check(c, l, captured != null);
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("backend", options.backend());
        facts.put("capture_instance", l.captureInstance());
        facts.put("primary_key", primaryKey);
        facts.put("unique_keys", l.uniqueKeys());
        facts.put("captured_columns", captured == null ? null : captured.stream().map(Meta::fact).toList());
        // capture off: the keys and the types are still checked, on the table's columns, so that every blocker
        // shows at once
        reading = "the table's unique indexes";
        KeyAndTypeChecks keys = new KeyAndTypeChecks(options, findings);
        keys.uniqueKeys(md, l, primaryKey, captured);
        keys.columnTypes(l, captured == null ? tableColumns : captured);
        return facts;
    }

    /** The captured columns of the capture instance, typed as the table declares them; null when CDC is off. */
    private List<Meta> cdcCaptured(Connection c, DatabaseMetaData md, Lane l, List<Meta> tableColumns)
        throws SQLException {
        String ci = l.captureInstance();
        String subject = "source.cdc." + ci;
        Lsn min;
        try (PreparedStatement st = c.prepareStatement(SqlServerCatalogSql.CDC_MIN_LSN)) {
            st.setString(1, ci);
            try (ResultSet rs = st.executeQuery()) {
                byte[] b = rs.next() ? rs.getBytes(1) : null;
                min = b == null ? null : Lsn.of(b);
            }
        } catch (SQLException e) {
            // no sys.fn_cdc_* function: CDC was never enabled on this database
            min = null;
        }
        if (min == null || min.isZero()) {
            findings.fail("capture_enabled", "capture instance " + ci + " does not exist", List.of(
                CdcBlockers.blocker(CdcBlockers.SOURCE_NOT_ENABLED, subject, "capture instance " + ci + " does not "
                    + "exist (sys.fn_cdc_get_min_lsn returned 0x00, as it also does for a caller outside the "
                    + "instance's gating role: see source_permissions): enable CDC on the database "
                    + "(sys.sp_cdc_enable_db) and on " + l.name() + " (sys.sp_cdc_enable_table)"
                    + (options.multiTable() ? "" : ", or pass its --capture-instance"))));
            return null;
        }
        reading = "the change table's columns";
        List<Meta> changeTable = SourceCatalogue.columns(md, "cdc", ci + "_CT");
        if (changeTable.isEmpty()) {
            findings.fail("capture_enabled", "the change table of " + ci + " is not readable", List.of(
                CdcBlockers.blocker(CdcBlockers.SOURCE_NOT_ENABLED, subject, "the change table of capture instance "
                    + ci + " is not readable by the source alias (grant SELECT on the cdc schema or the capture "
                    + "instance's gating role)")));
            return null;
        }
        List<Meta> captured = new ArrayList<>();
        List<Blocker> gone = new ArrayList<>();
        for (Meta m : changeTable) {
            Optional<Meta> inTable = tableColumns.stream().filter(t -> t.name().equalsIgnoreCase(m.name())).findFirst();
            if (inTable.isEmpty()) {
                gone.add(CdcBlockers.blocker(CdcBlockers.SCHEMA_CHANGED, "source.columns." + m.name(),
                    "captured column " + m.name() + " of " + ci + " is no longer a column of " + l.name()
                        + "; create a capture instance for the table's current shape (docs/cdc.md, \"Schema "
                        + "changes\")"));
            } else {
                captured.add(inTable.get());
            }
        }
        if (!gone.isEmpty()) {
            findings.fail("capture_enabled", "capture instance " + ci + " captures columns the table no longer has",
                gone);
            return null;
        }
        findings.pass("capture_enabled", "capture instance " + ci + " exists (min LSN " + min.hex() + "), capturing "
            + captured.size() + " columns");
        return captured;
    }

    /** Every column of the table when Change Tracking is on for the database and the table; else null. */
    private List<Meta> ctCaptured(Connection c, Lane l, List<Meta> tableColumns, List<String> primaryKey) {
        String name = l.name();
        String subject = "source.change_tracking." + name;
        Long current = SourceCatalogue.scalar(c, SqlServerCatalogSql.CT_CURRENT_VERSION);
        Long minValid = current == null ? null : SourceCatalogue.scalar(c, SqlServerCatalogSql.CT_MIN_VALID_VERSION,
            SqlServerDialect.quote(l.schema()) + "." + SqlServerDialect.quote(l.table()));
        if (current == null || minValid == null) {
            findings.fail("capture_enabled", "Change Tracking is off for " + (current == null ? "the database" : name),
                List.of(CdcBlockers.blocker(CdcBlockers.SOURCE_NOT_ENABLED, subject, "Change Tracking is not "
                    + "enabled for " + (current == null ? "the database (ALTER DATABASE ... SET CHANGE_TRACKING = ON)"
                    : name + " (ALTER TABLE ... ENABLE CHANGE_TRACKING)") + "; or use --backend mssql_cdc")));
            return null;
        }
        if (primaryKey.isEmpty()) {
            findings.fail("capture_enabled", name + " has no primary key", List.of(CdcBlockers.blocker(
                CdcBlockers.SOURCE_NOT_ENABLED, subject, name + " has no primary key (Change Tracking needs one)")));
            return null;
        }
        findings.pass("capture_enabled", "Change Tracking is on for " + name + " (current version " + current
            + ", min valid version " + minValid + ")");
        return tableColumns;
    }
}
