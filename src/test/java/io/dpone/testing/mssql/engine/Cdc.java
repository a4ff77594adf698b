package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SQL Server CDC as a user enables it: {@code sys.sp_cdc_enable_db}, {@code sys.sp_cdc_enable_table} (change table
 * {@code cdc.<ci>_CT} laid out and clustered as SQL Server's, its declared types recorded, {@code cdc.change_tables},
 * {@code cdc.captured_columns}), {@code sys.sp_cdc_disable_table}, {@code sys.sp_cdc_disable_db}. Capture is
 * {@link CdcTrigger} plus commit-time LSNs ({@link Capture}).
 * <p>
 * Departures from SQL Server: capture is synchronous (a change row exists as soon as its transaction commits; SQL
 * Server's log reader job writes it seconds later); every committed transaction that changes a captured table gets
 * its own new LSN and one {@code cdc.lsn_time_mapping} row, and enabling a table adds one mapping row for the
 * capture instance's start LSN (SQL Server also maps empty transactions); a write through H2 directly (not through
 * a twin session) gets an LSN per row. As on SQL Server, a {@code timestamp} column is {@code binary(8)} in the
 * change table and a computed column is there with its type and always NULL; a {@code sql_variant} column's base
 * type travels in an invisible companion of the change table, so SQL_VARIANT_PROPERTY works there too. The
 * cleanup job, {@code @captured_column_list}, net-change functions
 * ({@code cdc.fn_cdc_get_all_changes_*}) and DDL events ({@code cdc.ddl_history}) are not modelled; a captured table
 * keeps capturing after {@code ALTER TABLE ... ADD / DROP COLUMN}, each instance with its own columns.
 */
final class Cdc {
    private Cdc() {
    }

    static boolean enabled(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM twin_catalog.settings WHERE name = 'cdc'");
             ResultSet rs = st.executeQuery()) {
            return rs.next();
        }
    }

    static void enableDb(Connection c, boolean on) throws SQLException {
        Commands.ddl(c, on ? "MERGE INTO twin_catalog.settings KEY (name) VALUES ('cdc', '1')"
            : "DELETE FROM twin_catalog.settings WHERE name = 'cdc'");
    }

    static void enableTable(EngineSession s, Map<String, Object> args) throws SQLException, SqlServerError {
        Connection c = s.h2;
        if (!enabled(c)) {
            throw new SqlServerError(22901, 1, 16, "The database '" + s.database() + "' is not enabled for Change Data "
                + "Capture. Ensure that the correct database context is set and retry the operation. To report on the "
                + "databases enabled for Change Data Capture, query the is_cdc_enabled column in the sys.databases "
                + "catalog view.");
        }
        String schema = Procedures.text(args, "source_schema");
        String name = Procedures.text(args, "source_name");
        if (schema == null || name == null || !args.containsKey("role_name")) {
            throw new SqlServerError(201, 4, 16, "Procedure or function 'sp_cdc_enable_table' expects parameter "
                + "'@role_name', which was not supplied.");
        }
        Integer objectId = TwinFunctions.objectId(c, schema + "." + name, "U");
        if (objectId == null) {
            throw new SqlServerError(22963, 1, 16, "Parameter '@source_name' is not valid: the source table '["
                + schema + "].[" + name + "]' does not exist in the current database.");
        }
        Names.Table source = canonical(c, schema, name);
        String ci = Procedures.text(args, "capture_instance");
        ci = Names.validate(ci == null ? source.schema() + "_" + source.name() : ci);
        try (PreparedStatement st = c.prepareStatement("SELECT capture_instance, source_schema, source_table FROM "
            + "twin_catalog.cdc_instances")) {
            int forTable = 0;
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(1).equalsIgnoreCase(ci)) {
                        throw new SqlServerError(22926, 1, 16, "Could not create a capture instance because the "
                            + "capture instance name '" + ci + "' already exists in the current database. Specify an "
                            + "explicit unique name for the parameter @capture_instance.");
                    }
                    forTable += rs.getString(2).equalsIgnoreCase(source.schema())
                        && rs.getString(3).equalsIgnoreCase(source.name()) ? 1 : 0;
                }
            }
            if (forTable >= 2) {
                throw new SqlServerError(22928, 1, 16, "Could not create a capture instance because the source table "
                    + "already has two capture instances.");
            }
        }
        List<TwinCatalog.Column> captured = sourceColumns(s, source);
        Names.Table ct = new Names.Table("cdc", ci + "_CT");
        List<TwinCatalog.Column> layout = new ArrayList<>();
        layout.add(new TwinCatalog.Column("__$start_lsn", 1, SqlType.parse("binary(10)"), false));
        layout.add(new TwinCatalog.Column("__$end_lsn", 2, SqlType.parse("binary(10)"), false));
        layout.add(new TwinCatalog.Column("__$seqval", 3, SqlType.parse("binary(10)"), false));
        layout.add(new TwinCatalog.Column("__$operation", 4, SqlType.parse("int"), false));
        layout.add(new TwinCatalog.Column("__$update_mask", 5, SqlType.parse("varbinary(128)"), false));
        for (TwinCatalog.Column col : captured) {
            // a timestamp (rowversion) column is binary(8) in the change table, as SQL Server defines it there
            SqlType type = col.type().kind() == SqlType.Kind.ROWVERSION ? SqlType.parse("binary(8)") : col.type();
            layout.add(new TwinCatalog.Column(col.name(), layout.size() + 1, type, false));
        }
        layout.add(new TwinCatalog.Column("__$command_id", layout.size() + 1, SqlType.parse("int"), false));
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + ct.h2() + " (");
        for (TwinCatalog.Column col : layout) {
            boolean notNull = col.ordinal() != 2 && col.ordinal() != 5 && col.ordinal() <= 5;
            ddl.append(col.ordinal() > 1 ? ", " : "").append(Names.quote(col.name())).append(' ')
                .append(H2Types.h2(col.type())).append(notNull ? " NOT NULL" : "");
        }
        for (TwinCatalog.Column col : captured) {
            if (col.type().kind() == SqlType.Kind.SQL_VARIANT) {
                // the base types of the captured sql_variant values travel with them (SQL_VARIANT_PROPERTY on _CT)
                ddl.append(", ").append(Names.quote(TableDdl.variantTypeColumn(col.name()))).append(" VARCHAR(128) "
                    + "INVISIBLE");
            }
        }
        Commands.ddl(c, ddl.append(")").toString());
        Commands.ddl(c, "CREATE INDEX " + Names.quote(ci + "_CT_clustered_idx") + " ON " + ct.h2()
            + " (\"__$start_lsn\", \"__$command_id\", \"__$seqval\", \"__$operation\")");
        TwinCatalog.record(c, ct, layout);
        byte[] start = Capture.lsn(Capture.next(c, "lsn_seq"));
        try (PreparedStatement st = c.prepareStatement("INSERT INTO cdc.change_tables (object_id, version, "
            + "source_object_id, capture_instance, start_lsn, end_lsn, supports_net_changes, has_drop_pending, "
            + "role_name, index_name, filegroup_name, create_date, partition_switch) VALUES (?, 0, ?, ?, ?, NULL, ?, "
            + "NULL, ?, ?, NULL, CURRENT_TIMESTAMP, FALSE)")) {
            st.setInt(1, TwinFunctions.objectIdOf(ct.schema(), ct.name()));
            st.setInt(2, objectId);
            st.setString(3, ci);
            st.setBytes(4, start);
            st.setBoolean(5, Boolean.TRUE.equals(Procedures.bool(args, "supports_net_changes")));
            st.setString(6, Procedures.text(args, "role_name"));
            st.setString(7, Procedures.text(args, "index_name"));
            st.executeUpdate();
        }
        try (PreparedStatement st = c.prepareStatement("INSERT INTO cdc.lsn_time_mapping (start_lsn, tran_begin_time, "
            + "tran_end_time, tran_id, tran_begin_lsn) VALUES (?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, ?, ?)")) {
            st.setBytes(1, start);
            st.setBytes(2, start);
            st.setBytes(3, start);
            st.executeUpdate();
        }
        try (PreparedStatement st = c.prepareStatement("INSERT INTO cdc.captured_columns VALUES (?, ?, ?, ?, ?, ?)")) {
            for (TwinCatalog.Column col : captured) {
                TwinCatalog.Column declared = s.declaredColumn(source.schema(), source.name(), col.name());
                // a computed column is captured with its type and always NULL (SQL Server does not track it)
                st.setBoolean(6, declared != null && declared.computed() != null);
                st.setInt(1, TwinFunctions.objectIdOf(ct.schema(), ct.name()));
                st.setString(2, col.name());
                st.setInt(3, col.ordinal());
                st.setString(4, col.type().kind().sqlName());  // timestamp for a rowversion, as captured_columns says
                st.setInt(5, col.ordinal());
                st.addBatch();
            }
            st.executeBatch();
        }
        try (PreparedStatement st = c.prepareStatement("INSERT INTO twin_catalog.cdc_instances VALUES (?, ?, ?)")) {
            st.setString(1, ci);
            st.setString(2, source.schema());
            st.setString(3, source.name());
            st.executeUpdate();
        }
        Commands.ddl(c, "CREATE TRIGGER IF NOT EXISTS " + Names.quote(source.schema()) + "."
            + Names.quote("twin_cdc_" + source.name()) + " AFTER INSERT, UPDATE, DELETE ON " + source.h2()
            + " FOR EACH ROW CALL \"" + CdcTrigger.class.getName() + "\"");
        TwinCatalog.VERSION.incrementAndGet();
    }

    /**
     * After an {@code ALTER TABLE} of a captured table: H2 rebuilds the table and the capture trigger it re-created
     * with it captured nothing more (it was initialised during the rebuild). Re-creating the trigger on the table
     * keeps capturing, as SQL Server's capture job keeps capturing a table after DDL (its instances keep their
     * columns; a column added later is only in a capture instance created after it).
     */
    static void rebindTrigger(Connection c, Names.Table t) throws SQLException {
        Names.Table source = canonical(c, t.schema(), t.name());
        try (PreparedStatement st = c.prepareStatement("SELECT 1 FROM twin_catalog.cdc_instances WHERE "
            + "source_schema = ? AND source_table = ?")) {
            st.setString(1, source.schema());
            st.setString(2, source.name());
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return;
                }
            }
        }
        String trigger = Names.quote(source.schema()) + "." + Names.quote("twin_cdc_" + source.name());
        Commands.ddl(c, "DROP TRIGGER IF EXISTS " + trigger);
        Commands.ddl(c, "CREATE TRIGGER " + trigger + " AFTER INSERT, UPDATE, DELETE ON " + source.h2()
            + " FOR EACH ROW CALL \"" + CdcTrigger.class.getName() + "\"");
        TwinCatalog.VERSION.incrementAndGet();
    }

    /** The table's schema and name as H2 holds them (OBJECT_ID matched them case-insensitively). */
    static Names.Table canonical(Connection c, String schema, String name) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES "
            + "WHERE UPPER(TABLE_SCHEMA) = UPPER(?) AND UPPER(TABLE_NAME) = UPPER(?)")) {
            st.setString(1, schema);
            st.setString(2, name);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return new Names.Table(rs.getString(1), rs.getString(2));
            }
        }
    }

    /** The table's columns with declared types (derived from H2 for a table the twin did not create). */
    static List<TwinCatalog.Column> sourceColumns(EngineSession s, Names.Table t) throws SQLException {
        List<TwinCatalog.Column> out = new ArrayList<>();
        try (PreparedStatement st = s.h2.prepareStatement("SELECT * FROM " + t.h2() + " WHERE 1 = 0");
             ResultSet rs = st.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                TwinCatalog.Column declared = s.declaredColumn(t.schema(), t.name(), md.getColumnName(i));
                out.add(new TwinCatalog.Column(md.getColumnName(i), i,
                    declared != null ? declared.type() : H2Types.derived(md, i), false));
            }
        }
        return out;
    }

    static void disableTable(EngineSession s, Map<String, Object> args) throws SQLException, SqlServerError {
        String schema = Procedures.text(args, "source_schema");
        String name = Procedures.text(args, "source_name");
        String ci = Procedures.text(args, "capture_instance");
        if (schema == null || name == null || ci == null) {
            throw new SqlServerError(201, 4, 16, "Procedure or function 'sp_cdc_disable_table' expects parameter "
                + "'@capture_instance', which was not supplied.");
        }
        List<String> instances = instances(s.h2, schema, name);
        if (ci.equalsIgnoreCase("all")) {
            for (String each : instances) {
                drop(s.h2, each);
            }
        } else if (instances.stream().anyMatch(ci::equalsIgnoreCase)) {
            drop(s.h2, instances.stream().filter(ci::equalsIgnoreCase).findFirst().orElseThrow());
        } else {
            throw new SqlServerError(22904, 1, 16, "Could not disable Change Data Capture for capture instance '" + ci
                + "' on source table '" + schema + "." + name + "'. The capture instance does not exist.");
        }
    }

    /** A dropped source table loses its capture instances (as on SQL Server). */
    static void forget(Connection c, Names.Table t) throws SQLException {
        for (String ci : instances(c, t.schema(), t.name())) {
            drop(c, ci);
        }
    }

    private static List<String> instances(Connection c, String schema, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT capture_instance FROM twin_catalog.cdc_instances WHERE "
            + "UPPER(source_schema) = UPPER(?) AND UPPER(source_table) = UPPER(?)")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    private static void drop(Connection c, String ci) throws SQLException {
        Names.Table ct = new Names.Table("cdc", ci + "_CT");
        for (String sql : new String[] {"DELETE FROM cdc.change_tables WHERE capture_instance = ?",
            "DELETE FROM twin_catalog.cdc_instances WHERE capture_instance = ?"}) {
            try (PreparedStatement st = c.prepareStatement(sql)) {
                st.setString(1, ci);
                st.executeUpdate();
            }
        }
        try (PreparedStatement st = c.prepareStatement("DELETE FROM cdc.captured_columns WHERE object_id = ?")) {
            st.setInt(1, TwinFunctions.objectIdOf(ct.schema(), ct.name()));
            st.executeUpdate();
        }
        Commands.ddl(c, "DROP TABLE IF EXISTS " + ct.h2());
        TwinCatalog.drop(c, ct, null);
    }
}
