package io.dpone.testing.mssql.engine;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One SQL Server database: one H2 file. A keeper connection holds it open for the backend's life; sessions open
 * their own connections. {@link #commitLock} serialises the commits that allocate a CDC LSN or a Change Tracking
 * version, so LSN and version order is commit order, as on SQL Server.
 */
final class TwinDatabase implements AutoCloseable {
    final String name;
    final String url;
    final ReentrantLock commitLock = new ReentrantLock();
    private final Connection keeper;

    TwinDatabase(String name, Path file) throws SQLException {
        this.name = name;
        this.url = "jdbc:h2:file:" + file.toAbsolutePath() + ";MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE"
            + ";CASE_INSENSITIVE_IDENTIFIERS=TRUE;LAZY_QUERY_EXECUTION=1;TRACE_LEVEL_FILE=0;LOCK_TIMEOUT=20000";
        this.keeper = DriverManager.getConnection(url, "sa", "");
        keeper.setAutoCommit(false);
        DatabaseSetup.apply(keeper);
    }

    /** A session connection: unqualified names resolve in {@code dbo} (SQL Server's default schema), then PUBLIC. */
    Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(url, "sa", "");
        c.setAutoCommit(false);
        try (java.sql.Statement st = c.createStatement()) {
            st.execute("SET SCHEMA \"dbo\"");
            st.execute("SET SCHEMA_SEARCH_PATH \"dbo\", \"PUBLIC\"");
        }
        return c;
    }

    @Override
    public void close() {
        try {
            keeper.close();
        } catch (SQLException ignored) {
            // closing: nothing to do
        }
    }
}
