/**
 * The engine of {@code dev/mssql-twin}: SQL Server databases as H2 files ({@code MODE=MSSQLServer}), executing the
 * T-SQL mssql-jdbc and dpone send and describing every result column with its declared SQL Server type.
 *
 * <p>Entry point {@link io.dpone.testing.mssql.engine.H2Backend}; the wire talks to
 * {@link io.dpone.testing.mssql.engine.TwinSession}. Recognised and answered by the twin itself ({@code Commands},
 * {@code Procedures}, {@code Metadata}): {@code SET} options ({@code IMPLICIT_TRANSACTIONS}, {@code NOCOUNT},
 * isolation level; the rest accepted), {@code IF @@TRANCOUNT > 0 COMMIT|ROLLBACK TRAN},
 * {@code BEGIN/COMMIT/ROLLBACK [TRAN]}, {@code USE}, {@code CREATE DATABASE}, {@code CREATE/DROP TABLE},
 * {@code ALTER TABLE ADD / DROP COLUMN}, {@code CREATE TYPE .. FROM} (alias types), Change Tracking DDL,
 * {@code DENY/GRANT/REVOKE SELECT}, {@code IF OBJECT_ID(..) IS [NOT] NULL <statement>}, {@code EXEC} of
 * {@code sys.sp_cdc_*}, {@code sp_pkeys}, {@code sp_twin_fault}, and mssql-jdbc's getColumns text. Everything else
 * runs in H2 after {@code Translation}: {@code CHANGETABLE(CHANGES ..)},
 * {@code @@TRANCOUNT/@@SPID/@@VERSION/@@ROWCOUNT}, {@code DB_NAME()}, {@code x.rows}, {@code @name} parameters,
 * {@code @@DBTS}, the CLR types' calls and members and {@code SQL_VARIANT_PROPERTY(c, 'BaseType')}
 * ({@code ClrTypes}, {@code Variants}); {@code Inserts} checks and fills INSERTs and UPDATEs first (error 273 for
 * a {@code timestamp} value, computed columns skipped without a column list, sql_variant base types).
 *
 * <p>Emulated as SQL Server 2022 does it: {@code rowversion}/{@code timestamp} (engine-filled from a database-wide
 * counter at every insert and update, big-endian, {@code @@DBTS}, by {@code BeforeWriteTrigger}; getColumns
 * {@code timestamp}/BINARY/8; BIGBINARY(8) with UserType 0x0050 on the wire; 273 for a value other than
 * DEFAULT/NULL, 272 on update; a column added to a table with rows holds zeros there until each row is next
 * written; binary(8) in a CDC change table); alias types (getColumns names the alias, with the base type's codes;
 * the wire carries the base type; the alias's NOT NULL); computed columns (result type, values, 271 on a write,
 * IS_GENERATEDCOLUMN, NULL in a CDC change table); {@code SPARSE} (a nullable column, SS_IS_SPARSE 1);
 * {@code hierarchyid}, {@code geography} and {@code geometry} in getColumns (SQL_SS_UDT -151, which mssql-jdbc
 * reports as VARBINARY; SS_UDT_* names; SS_DATA_TYPE 23) and through their conversions
 * ({@code CAST(h AS nvarchar(4000))}, {@code h.ToString()}, {@code hierarchyid::Parse/GetRoot},
 * {@code STGeomFromWKB/STGeomFromText}, {@code STAsBinary()}, {@code AsBinaryZM()}, {@code STAsText()},
 * {@code STSrid}).
 *
 * <p>Departures from SQL Server, beyond those the CDC and Change Tracking classes list: DDL commits the open
 * transaction (H2); statements in a batch must be separated by semicolons (except mssql-jdbc's
 * {@code set implicit_transactions off IF @@TRANCOUNT > 0 COMMIT TRAN}); no savepoints, temporary tables, local
 * variables or procedural T-SQL; {@code varchar} text is kept as Java strings (characters outside the collation's
 * code page are not replaced by {@code ?} here; the wire encodes them); {@code datetime}/{@code smalldatetime} keep
 * what the client sent (no 1/300 s or minute rounding of literals); {@code sql_variant} holds its value's text plus
 * the base type of a literal, CAST/CONVERT or parameter written to it by INSERT .. VALUES or UPDATE .. SET (other
 * expressions and INSERT .. SELECT are refused with a twin error; a raw select sends an integer as bigint and
 * anything else as nvarchar; the base type travels into a CDC change table); a raw
 * select of a {@code hierarchyid}/{@code geography}/{@code geometry} column is refused with a twin error (the twin
 * stores the path text and SRID + WKB, not SQL Server's CLR serialisation, so it cannot send the UDT form);
 * {@code hierarchyid} text assigned without {@code Parse} must be canonical, and it sorts as text, not depth-first;
 * spatial values are 2D WKB types 1..7 (WKT: POINT, LINESTRING, POLYGON), with no geography validation (latitude
 * range, ring orientation, SRID catalogue) and no other methods; {@code xml} is re-serialised as SQL Server does it
 * (no XML declaration, {@code <a />}, CDATA as escaped text, whitespace-only text dropped: {@code XmlText}) but a
 * parse error is always 9400 and typed xml (schema collections) is not modelled; a computed column's type is H2's
 * for the expression (UPPER/LOWER/TRIM of a column keep its type); result columns of expressions get a type derived
 * from H2's (e.g. {@code SUM(bigint)} is a decimal, not {@code bigint}; {@code COUNT} is rewritten to {@code int},
 * {@code COUNT_BIG} to bigint); object ids are derived from names; the SS_DATA_TYPE column of getColumns and the
 * LENGTH of date/time types follow ODBC's documented sizes, and hierarchyid's precision 892 is sys.types'
 * max_length: neither was compared with a live server.
 */
package io.dpone.testing.mssql.engine;
