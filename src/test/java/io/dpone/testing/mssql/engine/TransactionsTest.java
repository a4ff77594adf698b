package io.dpone.testing.mssql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** SQL Server transaction rules over the session: autocommit, IMPLICIT_TRANSACTIONS, BEGIN/COMMIT/ROLLBACK. */
class TransactionsTest extends TwinTestBase {
    private long count(TwinSession s) throws Exception {
        return ((Number) batch(s, "SELECT COUNT(*) FROM dbo.t").single()).longValue();
    }

    @Test
    void autocommitIsVisibleToOtherSessions() throws Exception {
        batch("CREATE TABLE dbo.t (k int PRIMARY KEY)");
        try (TwinSession other = backend.open("shop")) {
            batch("INSERT INTO dbo.t VALUES (1)");
            assertEquals(1, count(other));
        }
    }

    @Test
    void implicitTransactionsAsMssqlJdbcSetAutoCommitFalse() throws Exception {
        batch("CREATE TABLE dbo.t (k int PRIMARY KEY)");
        try (TwinSession other = backend.open("shop")) {
            batch("set implicit_transactions on ");
            batch("INSERT INTO dbo.t VALUES (1)");
            assertEquals(1, ((Number) batch("SELECT @@TRANCOUNT").single()).intValue());
            assertEquals(0, count(other));
            batch("IF @@TRANCOUNT > 0 COMMIT TRAN");
            assertEquals(1, count(other));
            batch("INSERT INTO dbo.t VALUES (2)");
            batch("IF @@TRANCOUNT > 0 ROLLBACK TRAN");
            assertEquals(0, ((Number) batch("SELECT @@TRANCOUNT").single()).intValue());
            assertEquals(1, count(session));
            // a SELECT from a table opens the next implicit transaction, as on SQL Server
            assertEquals(1, ((Number) batch("SELECT @@TRANCOUNT").single()).intValue());
            batch("set implicit_transactions off IF @@TRANCOUNT > 0 COMMIT TRAN ");
            assertEquals(0, ((Number) batch("SELECT @@TRANCOUNT").single()).intValue());
            batch("INSERT INTO dbo.t VALUES (3)");
            assertEquals(2, count(other));
        }
    }

    @Test
    void explicitTransactionsNestAndRollBackWhole() throws Exception {
        batch("CREATE TABLE dbo.t (k int PRIMARY KEY)");
        batch("BEGIN TRAN; INSERT INTO dbo.t VALUES (1); BEGIN TRANSACTION; INSERT INTO dbo.t VALUES (2); COMMIT");
        assertEquals(1, ((Number) batch("SELECT @@TRANCOUNT").single()).intValue());
        batch("ROLLBACK");
        assertEquals(0, count(session));
        assertEquals(3902, error(() -> batch("COMMIT")).number());
        assertEquals(3903, error(() -> batch("ROLLBACK TRAN")).number());
    }

    @Test
    void aFailedStatementOutsideATransactionLeavesNothing() throws Exception {
        batch("CREATE TABLE dbo.t (k int PRIMARY KEY)");
        batch("INSERT INTO dbo.t VALUES (1)");
        assertEquals(2627, error(() -> batch("INSERT INTO dbo.t VALUES (2), (1)")).number());
        assertEquals(1, count(session));
    }
}
