-- Run once by the mssql-init service: the demo database, with CDC enabled (SQL Server Agent runs the capture jobs).
IF DB_ID(N'dpone_demo') IS NULL
    CREATE DATABASE dpone_demo;
GO
USE dpone_demo;
GO
IF (SELECT is_cdc_enabled FROM sys.databases WHERE name = N'dpone_demo') = 0
    EXEC sys.sp_cdc_enable_db;
GO
IF SCHEMA_ID(N'dbo') IS NOT NULL
    PRINT 'dpone_demo ready (CDC enabled)';
GO
