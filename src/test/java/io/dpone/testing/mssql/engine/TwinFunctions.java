package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/** T-SQL built-ins H2 lacks, bound in every twin database as {@code CREATE ALIAS} functions. */
public final class TwinFunctions {
    private TwinFunctions() {
    }

    /** The functions and the static methods behind them. */
    static final List<String[]> ALIASES = List.of(
        new String[] {"OBJECT_ID", "objectId"},
        new String[] {"SERVERPROPERTY", "serverProperty"},
        new String[] {"SYSUTCDATETIME", "sysUtcDateTime"},
        new String[] {"SYSDATETIME", "sysDateTime"},
        new String[] {"GETUTCDATE", "sysUtcDateTime"},
        new String[] {"SYSDATETIMEOFFSET", "sysDateTimeOffset"},
        new String[] {"twin_object_id", "objectIdOf"},
        new String[] {"twin_schema_id", "schemaIdOf"},
        new String[] {"CHANGE_TRACKING_CURRENT_VERSION", "ctCurrentVersion"},
        new String[] {"CHANGE_TRACKING_MIN_VALID_VERSION", "ctMinValidVersion"});

    /**
     * A stable object id for a table: SQL Server numbers objects as it creates them; the twin derives the id from
     * the name so H2 tables created outside the twin get one too (and ids survive a restart).
     */
    public static int objectIdOf(String schema, String table) {
        return 1_000_000 + Math.floorMod((schema.toLowerCase(Locale.ROOT) + "." + table.toLowerCase(Locale.ROOT))
            .hashCode(), 1_000_000_000);
    }

    /** SQL Server's fixed ids for {@code dbo} (1), {@code guest} (2), {@code INFORMATION_SCHEMA} (3), {@code sys} (4). */
    public static int schemaIdOf(String schema) {
        return switch (schema.toLowerCase(Locale.ROOT)) {
            case "dbo" -> 1;
            case "guest" -> 2;
            case "information_schema" -> 3;
            case "sys" -> 4;
            default -> 5 + Math.floorMod(schema.toLowerCase(Locale.ROOT).hashCode(), 16_000);
        };
    }

    public static Integer objectId(Connection c, String name) throws SQLException {
        return objectId(c, name, null);
    }

    /** {@code OBJECT_ID(name [, type])}: NULL for a missing object (or one of another type: U table, V view). */
    public static Integer objectId(Connection c, String name, String type) throws SQLException {
        if (name == null) {
            return null;
        }
        Names.Table t;
        try {
            t = Names.table(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM "
            + "INFORMATION_SCHEMA.TABLES WHERE UPPER(TABLE_SCHEMA) = UPPER(?) AND UPPER(TABLE_NAME) = UPPER(?)")) {
            st.setString(1, t.schema());
            st.setString(2, t.name());
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                boolean view = "VIEW".equals(rs.getString(3));
                if (type != null && !type.isBlank() && (type.trim().equalsIgnoreCase("V") != view)) {
                    return null;
                }
                return objectIdOf(rs.getString(1), rs.getString(2));
            }
        }
    }

    /** {@code SERVERPROPERTY(p)}: a SQL Server 2022 Developer Edition (engine edition 3). */
    public static String serverProperty(String property) {
        return switch (property == null ? "" : property.toLowerCase(Locale.ROOT)) {
            case "engineedition" -> "3";
            case "edition" -> "Developer Edition (64-bit)";
            case "productversion" -> "16.0.1000.6";
            case "productmajorversion" -> "16";
            case "productlevel" -> "RTM";
            case "servername", "machinename" -> "mssql-twin";
            case "collation" -> SqlType.DEFAULT_COLLATION;
            case "iscasesensitive" -> "0";
            default -> null;
        };
    }

    public static LocalDateTime sysUtcDateTime() {
        return LocalDateTime.now(ZoneOffset.UTC);
    }

    public static LocalDateTime sysDateTime() {
        return LocalDateTime.now();
    }

    public static OffsetDateTime sysDateTimeOffset() {
        return OffsetDateTime.now();
    }

    /** {@code @@DBTS}: the last rowversion value the database handed out ({@link BeforeWriteTrigger}). */
    public static byte[] dbts(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT BASE_VALUE FROM INFORMATION_SCHEMA.SEQUENCES WHERE "
            + "SEQUENCE_SCHEMA = 'twin_catalog' AND SEQUENCE_NAME = 'dbts_seq'"); ResultSet rs = st.executeQuery()) {
            rs.next();
            return BeforeWriteTrigger.bytes(rs.getLong(1) - 1);
        }
    }

    public static Long ctCurrentVersion(Connection c) throws SQLException {
        return ChangeTracking.currentVersion(c);
    }

    public static Long ctMinValidVersion(Connection c, Integer objectId) throws SQLException {
        return ChangeTracking.minValidVersion(c, objectId);
    }
}
