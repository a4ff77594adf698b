/**
 * The engine of {@code dev/mssql-twin}: SQL Server databases as H2 files ({@code MODE=MSSQLServer}), executing the
 * T-SQL mssql-jdbc and dpone send and describing every result column with its declared SQL Server type.
 *
 * <p>Entry point {@link io.dpone.testing.mssql.engine.H2Backend}; the wire talks to
 * {@link io.dpone.testing.mssql.engine.TwinSession}. Recognised and answered by the twin itself
 * ({@code Commands}, {@code Procedures}, {@code Metadata}): {@code SET} options ({@code IMPLICIT_TRANSACTIONS},
 * {@code NOCOUNT}, isolation level; the rest accepted), {@code IF @@TRANCOUNT > 0 COMMIT|ROLLBACK TRAN},
 * {@code BEGIN/COMMIT/ROLLBACK [TRAN]}, {@code USE}, {@code CREATE DATABASE}, {@code CREATE/DROP TABLE},
 * {@code ALTER TABLE ADD / DROP COLUMN}, Change Tracking DDL, {@code DENY/GRANT/REVOKE SELECT},
 * {@code IF OBJECT_ID(..) IS [NOT] NULL <statement>}, {@code EXEC} of {@code sys.sp_cdc_*}, {@code sp_pkeys},
 * {@code sp_twin_fault}, and mssql-jdbc's getColumns text. Everything else runs in H2 after {@code Translation}:
 * {@code CHANGETABLE(CHANGES ..)}, {@code @@TRANCOUNT/@@SPID/@@VERSION/@@ROWCOUNT}, {@code DB_NAME()},
 * {@code x.rows}, {@code @name} parameters.
 *
 * <p>Departures from SQL Server, beyond those the CDC and Change Tracking classes list: DDL commits the open
 * transaction (H2); statements in a batch must be separated by semicolons (except mssql-jdbc's
 * {@code set implicit_transactions off IF @@TRANCOUNT > 0 COMMIT TRAN}); no savepoints, temporary tables, local
 * variables or procedural T-SQL; {@code varchar} text is kept as Java strings (characters outside the collation's
 * code page are not replaced by {@code ?} here; the wire encodes them); {@code datetime}/{@code smalldatetime} keep
 * what the client sent (no 1/300 s or minute rounding of literals); {@code sql_variant} holds text; result columns of
 * expressions get a type derived from H2's (e.g. {@code SUM(bigint)} is a decimal, not {@code bigint}; {@code COUNT} is
 * rewritten to {@code int}, {@code COUNT_BIG} to bigint);
 * object ids are derived from names; the SS_DATA_TYPE column of getColumns and the LENGTH of date/time types follow
 * ODBC's documented sizes and were not compared with a live server.
 */
package io.dpone.testing.mssql.engine;
