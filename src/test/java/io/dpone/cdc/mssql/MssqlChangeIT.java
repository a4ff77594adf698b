package io.dpone.cdc.mssql;

import io.dpone.testing.ItServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * {@link MssqlChangeContract} against a real SQL Server (Agent on, so the capture job runs; {@code DPONE_IT_MSSQL_*}
 * or a Testcontainers SQL Server; skipped otherwise): the contract the twin passes, on a server. Its own database,
 * {@code dpone_change_it}.
 */
class MssqlChangeIT extends MssqlChangeContract {
    static final String DB = "dpone_change_it";

    @Override
    Server start() throws Exception {
        ItServers.Server s = ItServers.mssql();
        try (Connection master = DriverManager.getConnection(s.url(), s.user(), s.password());
             Statement st = master.createStatement()) {
            st.execute("IF DB_ID(N'" + DB + "') IS NULL CREATE DATABASE " + DB);
        }
        return new Server(s.url() + ";databaseName=" + DB, DB, s.user(), s.password());
    }
}
