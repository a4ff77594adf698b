package io.dpone.testing.mssql.engine;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What a fresh twin database holds before the first client: the schemas {@code dbo}, {@code sys}, {@code cdc};
 * the twin's own catalogue ({@code twin_catalog}: declared column types, Change Tracking and CDC registrations,
 * the LSN / version sequences); the {@code sys} catalogue views dpone reads; the CDC system tables; and the T-SQL
 * functions H2 lacks. Idempotent: it runs at every open, so a database created by an older twin is brought up to
 * date.
 */
final class DatabaseSetup {
    private DatabaseSetup() {
    }

    static void apply(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String schema : new String[] {"dbo", "sys", "cdc", "twin_catalog"}) {
                st.execute("CREATE SCHEMA IF NOT EXISTS " + Names.quote(schema));
            }
            st.execute("CREATE TABLE IF NOT EXISTS twin_catalog.columns (table_schema VARCHAR(128) NOT NULL, "
                + "table_name VARCHAR(128) NOT NULL, column_name VARCHAR(128) NOT NULL, ordinal INT NOT NULL, "
                + "declared VARCHAR(200) NOT NULL, is_identity BOOLEAN NOT NULL, "
                + "PRIMARY KEY (table_schema, table_name, column_name))");
            // added for alias types, computed and sparse columns: a database of an older twin gains them here
            st.execute("ALTER TABLE twin_catalog.columns ADD COLUMN IF NOT EXISTS user_type VARCHAR(128)");
            st.execute("ALTER TABLE twin_catalog.columns ADD COLUMN IF NOT EXISTS computed VARCHAR(4000)");
            st.execute("ALTER TABLE twin_catalog.columns ADD COLUMN IF NOT EXISTS is_sparse BOOLEAN DEFAULT FALSE "
                + "NOT NULL");
            st.execute("CREATE TABLE IF NOT EXISTS twin_catalog.types (type_schema VARCHAR(128) NOT NULL, type_name "
                + "VARCHAR(128) NOT NULL, base VARCHAR(200) NOT NULL, not_null BOOLEAN NOT NULL, "
                + "PRIMARY KEY (type_schema, type_name))");
            // @@DBTS: a new SQL Server database answers 0x00000000000007D0; the first rowversion is the next value
            st.execute("CREATE SEQUENCE IF NOT EXISTS twin_catalog.dbts_seq START WITH 2001");
            st.execute("CREATE TABLE IF NOT EXISTS twin_catalog.ct_database (retention_days INT, auto_cleanup BOOLEAN)");
            st.execute("CREATE TABLE IF NOT EXISTS twin_catalog.ct_tables (table_schema VARCHAR(128) NOT NULL, "
                + "table_name VARCHAR(128) NOT NULL, log_table VARCHAR(128) NOT NULL, min_valid_version BIGINT, "
                + "PRIMARY KEY (table_schema, table_name))");
            st.execute("CREATE TABLE IF NOT EXISTS twin_catalog.cdc_instances (capture_instance VARCHAR(128) "
                + "PRIMARY KEY, source_schema VARCHAR(128) NOT NULL, source_table VARCHAR(128) NOT NULL)");
            st.execute("CREATE TABLE IF NOT EXISTS twin_catalog.settings (name VARCHAR(128) PRIMARY KEY, "
                + "setting VARCHAR(200))");
            st.execute("CREATE TABLE IF NOT EXISTS twin_catalog.denied (table_schema VARCHAR(128) NOT NULL, "
                + "table_name VARCHAR(128) NOT NULL, principal VARCHAR(128) NOT NULL, "
                + "PRIMARY KEY (table_schema, table_name, principal))");
            st.execute("CREATE SEQUENCE IF NOT EXISTS twin_catalog.lsn_seq START WITH 256");
            st.execute("CREATE SEQUENCE IF NOT EXISTS twin_catalog.seqval_seq START WITH 16");
            st.execute("CREATE SEQUENCE IF NOT EXISTS twin_catalog.ct_version_seq START WITH 1");
            st.execute("CREATE TABLE IF NOT EXISTS cdc.change_tables (object_id INT, version INT, source_object_id "
                + "INT, capture_instance VARCHAR(128) NOT NULL, start_lsn BINARY(10), end_lsn BINARY(10), "
                + "supports_net_changes BOOLEAN, has_drop_pending BOOLEAN, role_name VARCHAR(128), index_name "
                + "VARCHAR(128), filegroup_name VARCHAR(128), create_date TIMESTAMP(3), partition_switch BOOLEAN)");
            st.execute("CREATE TABLE IF NOT EXISTS cdc.lsn_time_mapping (start_lsn BINARY(10) NOT NULL PRIMARY KEY, "
                + "tran_begin_time TIMESTAMP(3), tran_end_time TIMESTAMP(3), tran_id VARBINARY(10), "
                + "tran_begin_lsn BINARY(10))");
            st.execute("CREATE TABLE IF NOT EXISTS cdc.captured_columns (object_id INT, column_name VARCHAR(128), "
                + "column_id INT, column_type VARCHAR(128), column_ordinal INT, is_computed BOOLEAN)");
            st.execute("CREATE TABLE IF NOT EXISTS sys.dm_tran_commit_table (commit_ts BIGINT PRIMARY KEY, xdes_id "
                + "BIGINT, commit_lsn BIGINT, commit_csn BIGINT, commit_time TIMESTAMP(3))");
            for (String[] alias : TwinFunctions.ALIASES) {
                st.execute("CREATE ALIAS IF NOT EXISTS " + alias[0] + " FOR \"" + TwinFunctions.class.getName() + "."
                    + alias[1] + "\"");
            }
            for (String[] alias : ClrTypes.ALIASES) {
                st.execute("CREATE ALIAS IF NOT EXISTS " + alias[0] + " FOR \"" + ClrTypes.class.getName() + "."
                    + alias[1] + "\"");
            }
            st.execute("CREATE ALIAS IF NOT EXISTS twin_dbts FOR \"" + TwinFunctions.class.getName() + ".dbts\"");
            // the same sys.fn_cdc_* functions the product's demo emulation binds, over the same cdc tables
            String fns = io.dpone.demo.DemoCdcFunctions.class.getName();
            st.execute("CREATE ALIAS IF NOT EXISTS sys.fn_cdc_map_lsn_to_time FOR \"" + fns + ".mapLsnToTime\"");
            st.execute("CREATE ALIAS IF NOT EXISTS sys.fn_cdc_get_max_lsn FOR \"" + fns + ".maxLsn\"");
            st.execute("CREATE ALIAS IF NOT EXISTS sys.fn_cdc_get_min_lsn FOR \"" + fns + ".minLsn\"");
            views(st);
        }
        c.commit();
    }

    private static void views(Statement st) throws SQLException {
        String userTables = " FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA NOT IN ('INFORMATION_SCHEMA', "
            + "'twin_catalog', 'sys')";
        st.execute("CREATE OR REPLACE VIEW sys.schemas AS SELECT SCHEMA_NAME AS name, twin_schema_id(SCHEMA_NAME) AS "
            + "schema_id, 1 AS principal_id FROM INFORMATION_SCHEMA.SCHEMATA WHERE SCHEMA_NAME <> 'twin_catalog'");
        st.execute("CREATE OR REPLACE VIEW sys.objects AS SELECT twin_object_id(TABLE_SCHEMA, TABLE_NAME) AS object_id,"
            + " TABLE_NAME AS name, twin_schema_id(TABLE_SCHEMA) AS schema_id, CASE TABLE_TYPE WHEN 'VIEW' THEN 'V' "
            + "ELSE 'U' END AS type, CASE TABLE_TYPE WHEN 'VIEW' THEN 'VIEW' ELSE 'USER_TABLE' END AS type_desc, "
            + "0 AS parent_object_id, TABLE_SCHEMA = 'cdc' AS is_ms_shipped" + userTables);
        st.execute("CREATE OR REPLACE VIEW sys.tables AS SELECT o.object_id, o.name, o.schema_id, o.type, o.type_desc,"
            + " o.is_ms_shipped, EXISTS (SELECT 1 FROM twin_catalog.cdc_instances i WHERE twin_object_id("
            + "i.source_schema, i.source_table) = o.object_id) AS is_tracked_by_cdc FROM sys.objects o WHERE o.type = 'U'");
        st.execute("CREATE OR REPLACE VIEW sys.change_tracking_tables AS SELECT twin_object_id(table_schema, "
            + "table_name) AS object_id, FALSE AS is_track_columns_updated_on, min_valid_version, min_valid_version AS "
            + "begin_version, min_valid_version AS cleanup_version FROM twin_catalog.ct_tables");
        st.execute("CREATE OR REPLACE VIEW sys.partitions AS SELECT CAST(twin_object_id(TABLE_SCHEMA, TABLE_NAME) AS "
            + "BIGINT) * 65536 AS partition_id, twin_object_id(TABLE_SCHEMA, TABLE_NAME) AS object_id, "
            + "CASE WHEN EXISTS (SELECT 1 FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS k WHERE k.TABLE_SCHEMA = "
            + "t.TABLE_SCHEMA AND k.TABLE_NAME = t.TABLE_NAME AND k.CONSTRAINT_TYPE = 'PRIMARY KEY') THEN 1 ELSE 0 END "
            + "AS index_id, 1 AS partition_number, ROW_COUNT_ESTIMATE AS \"rows\" FROM INFORMATION_SCHEMA.TABLES t "
            + "WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA NOT IN ('INFORMATION_SCHEMA', 'twin_catalog', 'sys')");
        st.execute("CREATE OR REPLACE VIEW sys.columns AS SELECT twin_object_id(TABLE_SCHEMA, TABLE_NAME) AS object_id,"
            + " COLUMN_NAME AS name, ORDINAL_POSITION AS column_id, IS_NULLABLE = 'YES' AS is_nullable, "
            + "IS_IDENTITY = 'YES' AS is_identity FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA NOT IN "
            + "('INFORMATION_SCHEMA', 'twin_catalog') AND IS_VISIBLE");
    }
}
