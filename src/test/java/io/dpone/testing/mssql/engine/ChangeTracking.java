package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * SQL Server Change Tracking: {@code ALTER DATABASE .. SET CHANGE_TRACKING = ON|OFF}, {@code ALTER TABLE ..
 * ENABLE|DISABLE CHANGE_TRACKING}; a tracked table has a log {@code twin_catalog."ct_<schema>_<table>"} (seq, version,
 * marker, op, key columns) written by {@link CtTrigger} and versioned at commit ({@link Capture}).
 * {@code CHANGETABLE(CHANGES t, v) AS a} becomes a derived table over that log with SQL Server's columns and net
 * semantics: one row per key changed after {@code v}, its last change's version, {@code D} if that change is a
 * delete, {@code I} if the key's first change after {@code v} is an insert, else {@code U}.
 * <p>
 * Departures: no retention cleanup (the minimum valid version is the version at enable time);
 * {@code SYS_CHANGE_COLUMNS} and {@code SYS_CHANGE_CONTEXT} are always NULL; a primary-key update is a delete of
 * the old key and an insert of the new one.
 */
final class ChangeTracking {
    private static final Pattern DB = Pattern.compile(
        "(?is)\\s*ALTER\\s+DATABASE\\s+(" + SqlText.NAME + ")\\s+SET\\s+CHANGE_TRACKING\\s*=\\s*(ON|OFF)\\s*(\\((.*)\\))?\\s*");
    private static final Pattern TABLE = Pattern.compile(
        "(?is)\\s*ALTER\\s+TABLE\\s+(" + SqlText.NAME + ")\\s+(ENABLE|DISABLE)\\s+CHANGE_TRACKING\\b.*");
    private static final Pattern RETENTION = Pattern.compile("(?i)CHANGE_RETENTION\\s*=\\s*(\\d+)\\s*(DAYS|HOURS|MINUTES)?");
    private static final Pattern CHANGETABLE = Pattern.compile(
        "(?i)CHANGETABLE\\s*\\(\\s*CHANGES\\s+([^,]+?)\\s*,\\s*([^)]+?)\\s*\\)\\s+(?:AS\\s+)?(\\[[^\\]]*\\]|\\w+)");
    private static final Map<String, SqlType> META = new LinkedHashMap<>();

    static {
        META.put("SYS_CHANGE_VERSION", SqlType.parse("bigint"));
        META.put("SYS_CHANGE_CREATION_VERSION", SqlType.parse("bigint"));
        META.put("SYS_CHANGE_OPERATION", SqlType.parse("nchar(1)"));
        META.put("SYS_CHANGE_COLUMNS", SqlType.parse("varbinary(4100)"));
        META.put("SYS_CHANGE_CONTEXT", SqlType.parse("varbinary(128)"));
    }

    private ChangeTracking() {
    }

    static boolean isDdl(String sql) {
        String m = SqlText.mask(sql);
        return DB.matcher(m).matches() || TABLE.matcher(m).matches();
    }

    static void ddl(EngineSession s, String sql) throws SQLException, SqlServerError {
        Matcher m = EngineSession.match(DB, sql);
        if (m != null) {
            database(s, m.group(2).equalsIgnoreCase("ON"), m.group(4) == null ? "" : m.group(4));
            return;
        }
        m = EngineSession.match(TABLE, sql);
        Names.Table t = Names.table(sql.substring(m.start(1), m.end(1)));
        if (m.group(2).equalsIgnoreCase("ENABLE")) {
            enable(s, t);
        } else if (!forget(s.h2, t)) {
            throw new SqlServerError(4997, 1, 16, "Cannot disable change tracking on table '" + t.name() + "'. Change "
                + "tracking is not enabled on the table.");
        }
    }

    private static void database(EngineSession s, boolean on, String options) throws SQLException, SqlServerError {
        boolean enabled = currentVersion(s.h2) != null;
        if (on) {
            if (enabled) {
                // SQL Server's number for this message (Msg 5088), which a client tells apart from other failures
                throw new SqlServerError(5088, 1, 16, "Change tracking is already enabled for database '"
                    + s.database() + "'.");
            }
            Matcher r = RETENTION.matcher(options);
            try (PreparedStatement st = s.h2.prepareStatement("INSERT INTO twin_catalog.ct_database VALUES (?, ?)")) {
                st.setInt(1, r.find() ? Integer.parseInt(r.group(1)) : 2);
                st.setBoolean(2, !options.toUpperCase(Locale.ROOT).matches("(?s).*AUTO_CLEANUP\\s*=\\s*OFF.*"));
                st.executeUpdate();
            }
        } else {
            if (tracked(s.h2, null) > 0) {
                throw new SqlServerError(22115, 1, 16, "Change tracking is enabled for one or more tables in database '"
                    + s.database() + "'. Disable change tracking on each table before disabling it for the database.");
            }
            Commands.ddl(s.h2, "DELETE FROM twin_catalog.ct_database");
        }
    }

    private static void enable(EngineSession s, Names.Table named) throws SQLException, SqlServerError {
        Long current = currentVersion(s.h2);
        if (current == null) {
            throw new SqlServerError(4997, 1, 16, "Cannot enable change tracking on table '" + named.name() + "'. "
                + "Change tracking must be enabled on the database '" + s.database() + "' before it can be enabled "
                + "on a table.");
        }
        if (TwinFunctions.objectId(s.h2, named.toString(), "U") == null) {
            throw new SqlServerError(4902, 1, 16, "Cannot find the object \"" + named + "\" because it does not "
                + "exist or you do not have permissions.");
        }
        Names.Table t = Cdc.canonical(s.h2, named.schema(), named.name());
        if (tracked(s.h2, t) > 0) {
            throw new SqlServerError(4996, 1, 16, "Change tracking is already enabled for table '" + t.name() + "'.");
        }
        List<TwinCatalog.Column> key = key(s, t);
        if (key.isEmpty()) {
            throw new SqlServerError(4997, 1, 16, "Cannot enable change tracking on table '" + t.name() + "'. Change "
                + "tracking requires a primary key on the table. Create a primary key on the table before enabling "
                + "change tracking.");
        }
        Names.Table log = logTable(t);
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + log.h2() + " (seq BIGINT GENERATED ALWAYS AS IDENTITY "
            + "PRIMARY KEY, version BIGINT, marker BIGINT, op CHAR(1) NOT NULL");
        for (TwinCatalog.Column k : key) {
            ddl.append(", ").append(Names.quote(k.name())).append(' ').append(H2Types.h2(k.type()));
        }
        Commands.ddl(s.h2, ddl.append(")").toString());
        Commands.ddl(s.h2, "CREATE INDEX " + Names.quote(log.name() + "_key") + " ON " + log.h2() + " ("
            + key.stream().map(k -> Names.quote(k.name())).collect(Collectors.joining(", ")) + ", seq)");
        try (PreparedStatement st = s.h2.prepareStatement("INSERT INTO twin_catalog.ct_tables VALUES (?, ?, ?, ?)")) {
            st.setString(1, t.schema());
            st.setString(2, t.name());
            st.setString(3, log.name());
            st.setLong(4, current);
            st.executeUpdate();
        }
        Commands.ddl(s.h2, "CREATE TRIGGER " + Names.quote(t.schema()) + "." + Names.quote("twin_ct_" + t.name())
            + " AFTER INSERT, UPDATE, DELETE ON " + t.h2() + " FOR EACH ROW CALL \"" + CtTrigger.class.getName() + "\"");
        TwinCatalog.VERSION.incrementAndGet();
    }

    static Names.Table logTable(Names.Table t) {
        return new Names.Table("twin_catalog", "ct_" + t.schema() + "_" + t.name());
    }

    /** The primary-key columns with their declared types, in key order. */
    static List<TwinCatalog.Column> key(EngineSession s, Names.Table t) throws SQLException {
        Map<String, TwinCatalog.Column> all = new LinkedHashMap<>();
        for (TwinCatalog.Column c : Cdc.sourceColumns(s, t)) {
            all.put(c.name().toLowerCase(Locale.ROOT), c);
        }
        List<TwinCatalog.Column> out = new ArrayList<>();
        for (String name : Metadata.primaryKey(s.h2, t.schema(), t.name()).keySet()) {
            out.add(all.get(name.toLowerCase(Locale.ROOT)));
        }
        return out;
    }

    private static int tracked(Connection c, Names.Table t) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT COUNT(*) FROM twin_catalog.ct_tables"
            + (t == null ? "" : " WHERE UPPER(table_schema) = UPPER(?) AND UPPER(table_name) = UPPER(?)"))) {
            if (t != null) {
                st.setString(1, t.schema());
                st.setString(2, t.name());
            }
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Stops tracking a table (DISABLE, or the table is dropped); false when it was not tracked. */
    static boolean forget(Connection c, Names.Table t) throws SQLException {
        if (tracked(c, t) == 0) {
            return false;
        }
        Names.Table actual = Cdc.canonical(c, t.schema(), t.name());
        Commands.ddl(c, "DROP TRIGGER IF EXISTS " + Names.quote(actual.schema()) + "."
            + Names.quote("twin_ct_" + actual.name()));
        Commands.ddl(c, "DROP TABLE IF EXISTS " + logTable(actual).h2());
        try (PreparedStatement st = c.prepareStatement("DELETE FROM twin_catalog.ct_tables WHERE "
            + "UPPER(table_schema) = UPPER(?) AND UPPER(table_name) = UPPER(?)")) {
            st.setString(1, t.schema());
            st.setString(2, t.name());
            st.executeUpdate();
        }
        TwinCatalog.VERSION.incrementAndGet();
        return true;
    }

    /** {@code CHANGE_TRACKING_CURRENT_VERSION()}: NULL when the database does not track changes. */
    static Long currentVersion(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT (SELECT COUNT(*) FROM twin_catalog.ct_database), "
            + "(SELECT COALESCE(MAX(commit_ts), 0) FROM sys.dm_tran_commit_table)"); ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getInt(1) == 0 ? null : rs.getLong(2);
        }
    }

    /** {@code CHANGE_TRACKING_MIN_VALID_VERSION(object_id)}: NULL for a table that is not tracked. */
    static Long minValidVersion(Connection c, Integer objectId) throws SQLException {
        if (objectId == null) {
            return null;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT min_valid_version FROM twin_catalog.ct_tables WHERE "
            + "twin_object_id(table_schema, table_name) = ?")) {
            st.setInt(1, objectId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** Rewrites each {@code CHANGETABLE(CHANGES t, v) AS a} and records the declared columns of {@code a}. */
    static String rewriteChangeTable(EngineSession s, String sql) throws SQLException, SqlServerError {
        s.aliases.clear();
        Matcher m = CHANGETABLE.matcher(SqlText.mask(sql));
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (m.find()) {
            Names.Table named = Names.table(sql.substring(m.start(1), m.end(1)));
            String version = sql.substring(m.start(2), m.end(2)).trim();
            if (!version.matches("(?i)@\\w+|NULL|\\d+|\\?")) {
                throw SqlErrors.syntax(version);
            }
            String alias = Names.parts(sql.substring(m.start(3), m.end(3))).get(0);
            if (TwinFunctions.objectId(s.h2, named.toString(), "U") == null || tracked(s.h2, named) == 0) {
                throw new SqlServerError(4998, 1, 16, "Change tracking is not enabled on table '" + named.name()
                    + "'.");
            }
            Names.Table t = Cdc.canonical(s.h2, named.schema(), named.name());
            List<TwinCatalog.Column> key = key(s, t);
            out.append(sql, last, m.start()).append(derived(logTable(t), key, version)).append(" AS ")
                .append(Names.quote(alias));
            Map<String, TwinCatalog.Column> declared = new LinkedHashMap<>();
            META.forEach((n, type) -> declared.put(n.toLowerCase(Locale.ROOT), new TwinCatalog.Column(n, 0, type,
                false)));
            key.forEach(k -> declared.put(k.name().toLowerCase(Locale.ROOT), k));
            s.aliases.put(alias.toLowerCase(Locale.ROOT), declared);
            last = m.end();
        }
        return out.append(sql.substring(last)).toString();
    }

    private static String derived(Names.Table log, List<TwinCatalog.Column> key, String version) {
        String since = "COALESCE(CAST(" + version + " AS BIGINT), -1)";
        String same = key.stream().map(k -> "f." + Names.quote(k.name()) + " = c." + Names.quote(k.name()))
            .collect(Collectors.joining(" AND "));
        String keys = key.stream().map(k -> "c." + Names.quote(k.name())).collect(Collectors.joining(", "));
        return "(SELECT c.version AS SYS_CHANGE_VERSION, (SELECT MAX(f.version) FROM " + log.h2() + " f WHERE " + same
            + " AND f.op = 'I') AS SYS_CHANGE_CREATION_VERSION, CAST(CASE WHEN c.op = 'D' THEN 'D' WHEN (SELECT f.op "
            + "FROM " + log.h2() + " f WHERE " + same + " AND f.version > " + since + " ORDER BY f.seq FETCH FIRST 1 "
            + "ROW ONLY) = 'I' THEN 'I' ELSE 'U' END AS CHAR(1)) AS SYS_CHANGE_OPERATION, CAST(NULL AS VARBINARY(4100))"
            + " AS SYS_CHANGE_COLUMNS, CAST(NULL AS VARBINARY(128)) AS SYS_CHANGE_CONTEXT, " + keys + " FROM "
            + log.h2() + " c WHERE c.version > " + since + " AND NOT EXISTS (SELECT 1 FROM " + log.h2() + " f WHERE "
            + same + " AND f.version IS NOT NULL AND f.seq > c.seq))";
    }
}
