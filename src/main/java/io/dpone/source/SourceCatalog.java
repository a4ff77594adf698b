package io.dpone.source;

import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a source database's catalogue says about its user tables, read without touching a row ({@code dpone
 * discover}): every base table, its size estimates, unique keys and CDC / Change Tracking state.
 *
 * <p>On SQL Server: the tables from {@code sys.tables} ({@code is_ms_shipped = 0}) with {@code is_tracked_by_cdc} and
 * {@code sys.change_tracking_tables}; rows and bytes from {@code sys.dm_db_partition_stats} (row count of the heap
 * or clustered index, reserved pages of every index; needs VIEW DATABASE STATE), else rows from
 * {@code sys.partitions} and no bytes; capture instances from {@code cdc.change_tables}. On the H2 stand-in: the
 * tables from {@code INFORMATION_SCHEMA.TABLES} with {@code ROW_COUNT_ESTIMATE} and {@code DISK_SPACE_USED} (its
 * storage's estimate), capture instances from the emulation's {@code cdc.change_tables} matched to their table by
 * SQL Server's default name {@code <schema>_<table>}, and no Change Tracking catalogue (state unknown). Every
 * estimate that cannot be read is absent, never guessed.
 */
public final class SourceCatalog {
    /** Where the estimates and the CDC state came from, for the catalog document. */
    public record Provenance(String tables, String rows, String bytes, String cdc, String changeTracking) {
    }

    /**
     * One user table. {@code estimatedRows}/{@code estimatedBytes}: null when the catalogue cannot say;
     * {@code changeTracking}: null when unknown.
     */
    public record Table(String schema, String name, Long estimatedRows, Long estimatedBytes, boolean cdcTracked,
                        List<String> captureInstances, Boolean changeTracking) {
        public Table {
            captureInstances = List.copyOf(captureInstances);
        }
    }

    /** The listing: every user table, ordered by schema and name, and where each fact came from. */
    public record Listing(List<Table> tables, Provenance provenance) {
        public Listing {
            tables = List.copyOf(tables);
        }
    }

    private static final List<String> SYSTEM_SCHEMAS = List.of("INFORMATION_SCHEMA", "sys", "cdc", "twin_catalog",
        "guest", "db_owner", "db_accessadmin", "db_securityadmin", "db_ddladmin", "db_backupoperator",
        "db_datareader", "db_datawriter", "db_denydatareader", "db_denydatawriter");

    private final Connection connection;

    SourceCatalog(Connection connection) {
        this.connection = connection;
    }

    /** The catalogue of an open source connection (a CDC stream resolving its table patterns). */
    public static SourceCatalog of(Connection connection) {
        return new SourceCatalog(connection);
    }

    /** True when the connection is the H2 stand-in. */
    boolean h2() throws SQLException {
        return connection.getMetaData().getDatabaseProductName().startsWith("H2");
    }

    /** Every user table with its estimates and CDC state. */
    public Listing list() {
        try {
            return h2() ? listH2() : listSqlServer();
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.catalog",
                "cannot read the source catalogue (SQLState " + e.getSQLState() + ")");
        }
    }

    /**
     * The unique keys of a table other than its primary key (unique indexes and constraints), each as its columns in
     * key order, ordered by index name.
     */
    public List<List<String>> uniqueKeys(String schema, String table, List<String> primaryKey) {
        Map<String, TreeMap<Integer, String>> byIndex = new TreeMap<>();
        try (ResultSet rs = connection.getMetaData().getIndexInfo(null, schema, table, true, true)) {
            while (rs.next()) {
                if (!table.equalsIgnoreCase(rs.getString("TABLE_NAME")) || rs.getBoolean("NON_UNIQUE")
                    || rs.getString("INDEX_NAME") == null || rs.getString("COLUMN_NAME") == null
                    || rs.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic) {
                    continue;
                }
                byIndex.computeIfAbsent(rs.getString("INDEX_NAME"), k -> new TreeMap<>())
                    .put((int) rs.getShort("ORDINAL_POSITION"), rs.getString("COLUMN_NAME"));
            }
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.catalog",
                "cannot read the indexes of " + schema + "." + table + " (SQLState " + e.getSQLState() + ")");
        }
        List<List<String>> keys = new ArrayList<>();
        for (TreeMap<Integer, String> cols : byIndex.values()) {
            List<String> key = List.copyOf(cols.values());
            boolean isPrimary = key.size() == primaryKey.size() && key.stream()
                .allMatch(k -> primaryKey.stream().anyMatch(p -> p.equalsIgnoreCase(k)));
            if (!isPrimary && !keys.contains(key)) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** The column names of a table in table order (to name the one a manifest could not spell). */
    public List<String> columnNames(String schema, String table) {
        List<String> names = new ArrayList<>();
        try (ResultSet rs = connection.getMetaData().getColumns(null, schema, table, null)) {
            while (rs.next()) {
                if (table.equalsIgnoreCase(rs.getString("TABLE_NAME"))
                    && schema.equalsIgnoreCase(rs.getString("TABLE_SCHEM"))) {
                    names.add(rs.getString("COLUMN_NAME"));
                }
            }
        } catch (SQLException e) {
            throw new DponeException(BlockerCode.SOURCE_READ_FAILED, "source.catalog",
                "cannot read the columns of " + schema + "." + table + " (SQLState " + e.getSQLState() + ")");
        }
        return names;
    }

    private Listing listH2() throws SQLException {
        Map<String, List<String>> captures = h2CaptureInstances();
        List<Table> tables = new ArrayList<>();
        boolean bytes = true;
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME, ROW_COUNT_ESTIMATE FROM "
                 + "INFORMATION_SCHEMA.TABLES WHERE TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            while (rs.next()) {
                String schema = rs.getString(1);
                String name = rs.getString(2);
                if (system(schema)) {
                    continue;
                }
                long rows = rs.getLong(3);
                Long rowEstimate = rs.wasNull() || rows < 0 ? null : rows;
                List<String> ci = captures.getOrDefault(key(schema + "_" + name), List.of());
                tables.add(new Table(schema, name, rowEstimate, null, !ci.isEmpty(), ci, null));
            }
        }
        List<Table> sized = new ArrayList<>();
        for (Table t : tables) {
            Long b = bytes ? h2DiskSpace(t) : null;
            bytes = b != null;
            sized.add(new Table(t.schema(), t.name(), t.estimatedRows(), b, t.cdcTracked(), t.captureInstances(),
                null));
        }
        return new Listing(sized, new Provenance("INFORMATION_SCHEMA.TABLES (H2)",
            "INFORMATION_SCHEMA.TABLES.ROW_COUNT_ESTIMATE (H2)", bytes ? "DISK_SPACE_USED (H2)" : null,
            "cdc.change_tables (emulation; capture instance <schema>_<table>)", null));
    }

    /** H2's estimate of a table's storage, or null when it has none. */
    private Long h2DiskSpace(Table t) {
        try (PreparedStatement ps = connection.prepareStatement("SELECT DISK_SPACE_USED(?)")) {
            ps.setString(1, "\"" + t.schema().replace("\"", "\"\"") + "\".\"" + t.name().replace("\"", "\"\"")
                + "\"");
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && !rs.wasNull() ? Long.valueOf(rs.getLong(1)) : null;
            }
        } catch (SQLException e) {
            return null;
        }
    }

    /** The emulation's capture instances by lower-cased name; none when it has no {@code cdc.change_tables}. */
    private Map<String, List<String>> h2CaptureInstances() {
        Map<String, List<String>> found = new HashMap<>();
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT capture_instance FROM cdc.change_tables")) {
            while (rs.next()) {
                String ci = rs.getString(1);
                if (ci != null) {
                    found.computeIfAbsent(key(ci), k -> new ArrayList<>()).add(ci);
                }
            }
        } catch (SQLException e) {
            // no CDC emulation on this database
        }
        return found;
    }

    private Listing listSqlServer() throws SQLException {
        Map<String, Table> tables = new LinkedHashMap<>();
        String changeTracking = "sys.change_tracking_tables";
        String sql = "SELECT s.name, t.name, t.is_tracked_by_cdc, CASE WHEN ct.object_id IS NULL THEN 0 ELSE 1 END "
            + "FROM sys.tables t JOIN sys.schemas s ON s.schema_id = t.schema_id "
            + "LEFT JOIN sys.change_tracking_tables ct ON ct.object_id = t.object_id "
            + "WHERE t.is_ms_shipped = 0 ORDER BY s.name, t.name";
        String fallback = "SELECT s.name, t.name, t.is_tracked_by_cdc, NULL FROM sys.tables t JOIN sys.schemas s "
            + "ON s.schema_id = t.schema_id WHERE t.is_ms_shipped = 0 ORDER BY s.name, t.name";
        try {
            readTables(sql, tables);
        } catch (SQLException e) {
            tables.clear();
            changeTracking = null;
            readTables(fallback, tables);
        }
        Map<String, List<String>> captures = sqlServerCaptureInstances();
        String rowsFrom = "sys.dm_db_partition_stats";
        String bytesFrom = "sys.dm_db_partition_stats (reserved pages)";
        Map<String, long[]> sizes = new HashMap<>();
        try {
            readSizes("SELECT s.name, t.name, SUM(CASE WHEN p.index_id IN (0, 1) THEN p.row_count ELSE 0 END), "
                + "SUM(p.reserved_page_count) * 8192 FROM sys.dm_db_partition_stats p JOIN sys.tables t ON "
                + "t.object_id = p.object_id JOIN sys.schemas s ON s.schema_id = t.schema_id GROUP BY s.name, t.name",
                sizes);
        } catch (SQLException e) {
            sizes.clear();
            bytesFrom = null;
            rowsFrom = "sys.partitions";
            try {
                readSizes("SELECT s.name, t.name, SUM(p.rows), NULL FROM sys.partitions p JOIN sys.tables t ON "
                    + "t.object_id = p.object_id JOIN sys.schemas s ON s.schema_id = t.schema_id WHERE p.index_id IN "
                    + "(0, 1) GROUP BY s.name, t.name", sizes);
            } catch (SQLException again) {
                rowsFrom = null;
            }
        }
        List<Table> out = new ArrayList<>();
        for (Table t : tables.values()) {
            long[] size = sizes.get(key(t.schema() + "." + t.name()));
            List<String> ci = captures.getOrDefault(key(t.schema() + "." + t.name()), List.of());
            out.add(new Table(t.schema(), t.name(), size == null || size[0] < 0 ? null : size[0],
                size == null || size[1] < 0 ? null : size[1], t.cdcTracked() || !ci.isEmpty(), ci,
                t.changeTracking()));
        }
        return new Listing(out, new Provenance("sys.tables", rowsFrom, bytesFrom,
            "sys.tables.is_tracked_by_cdc, cdc.change_tables", changeTracking));
    }

    private void readTables(String sql, Map<String, Table> tables) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String schema = rs.getString(1);
                if (system(schema)) {
                    continue;
                }
                boolean cdc = rs.getBoolean(3);
                int ct = rs.getInt(4);
                Boolean tracked = rs.wasNull() ? null : ct == 1;
                tables.put(key(schema + "." + rs.getString(2)), new Table(schema, rs.getString(2), null, null, cdc,
                    List.of(), tracked));
            }
        }
    }

    private void readSizes(String sql, Map<String, long[]> sizes) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                long rows = rs.getLong(3);
                if (rs.wasNull()) {
                    rows = -1;
                }
                long bytes = rs.getLong(4);
                if (rs.wasNull()) {
                    bytes = -1;
                }
                sizes.put(key(rs.getString(1) + "." + rs.getString(2)), new long[] {rows, bytes});
            }
        }
    }

    /** Capture instances by source table; none when the database has no CDC (no {@code cdc} schema). */
    private Map<String, List<String>> sqlServerCaptureInstances() {
        Map<String, List<String>> found = new HashMap<>();
        try (Statement st = connection.createStatement();
             ResultSet rs = st.executeQuery("SELECT s.name, t.name, ct.capture_instance FROM cdc.change_tables ct "
                 + "JOIN sys.tables t ON t.object_id = ct.source_object_id JOIN sys.schemas s ON s.schema_id = "
                 + "t.schema_id ORDER BY ct.capture_instance")) {
            while (rs.next()) {
                if (rs.getString(1) != null && rs.getString(2) != null) {
                    found.computeIfAbsent(key(rs.getString(1) + "." + rs.getString(2)), k -> new ArrayList<>())
                        .add(rs.getString(3));
                }
            }
        } catch (SQLException e) {
            // CDC is not enabled on this database (no cdc schema), or no permission to read it
        }
        return found;
    }

    private static boolean system(String schema) {
        return schema == null || SYSTEM_SCHEMAS.stream().anyMatch(s -> s.equalsIgnoreCase(schema));
    }

    private static String key(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
