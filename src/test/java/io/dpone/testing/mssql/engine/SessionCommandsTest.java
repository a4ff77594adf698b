package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The connection commands mssql-jdbc sends as SQL batches, and the session values they read. */
class SessionCommandsTest extends TwinTestBase {
    @Test
    void optionsAreAcceptedAndEndWithOneDone() throws Exception {
        for (String sql : new String[] {"set implicit_transactions off ", "SET ANSI_NULLS ON", "SET NOCOUNT ON",
            "set transaction isolation level read committed", "SET TEXTSIZE 2147483647", "SET QUOTED_IDENTIFIER ON"}) {
            RecordingResults out = batch(sql);
            assertEquals(1, out.statements.size(), sql);
            assertEquals(-1L, out.statements.get(0).count, sql);
        }
    }

    @Test
    void sessionValues() throws Exception {
        assertEquals(0, ((Number) batch("SELECT @@TRANCOUNT").single()).intValue());
        RecordingResults edition = batch("SELECT CAST(SERVERPROPERTY('EngineEdition') as INT)");
        assertEquals(3, edition.single());
        assertEquals(SqlType.Kind.INT, edition.column(0).type().kind());
        assertEquals("", edition.column(0).name());
        assertTrue(((String) batch("SELECT @@VERSION").single()).startsWith("Microsoft SQL Server 2022"));
        assertTrue(((Number) batch("SELECT @@SPID").single()).intValue() >= 51);
        assertEquals("shop", batch("SELECT DB_NAME()").single());
    }

    @Test
    void useSwitchesDatabaseAndUnknownDatabasesFail() throws Exception {
        batch("use [master]");
        assertEquals("master", session.database());
        assertEquals("master", batch("SELECT DB_NAME()").single());
        assertEquals(911, error(() -> batch("USE nope")).number());
        SqlServerError login = error(() -> backend.open("nope"));
        assertEquals(4060, login.number());
        assertEquals("Cannot open database \"nope\" requested by the login. The login failed.", login.getMessage());
        batch("CREATE DATABASE second");
        batch("USE second");
        assertEquals("second", session.database());
    }
}
