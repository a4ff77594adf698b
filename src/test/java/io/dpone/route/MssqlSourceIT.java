package io.dpone.route;

import io.dpone.testing.ItServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MssqlSourceContract} against a real SQL Server ({@code DPONE_IT_MSSQL_URL}/{@code _USER}/{@code
 * _PASSWORD_ENV}, or a Testcontainers SQL Server where Docker runs; skipped otherwise): the contract the twin passes,
 * on a server. Its own database, {@code dpone_source_it}.
 */
class MssqlSourceIT extends RealSchemaContract {
    static final String DB = "dpone_source_it";

    @TempDir
    static Path home;

    @Override
    Server start() throws Exception {
        ItServers.Server s = ItServers.mssql();
        try (Connection master = DriverManager.getConnection(s.url(), s.user(), s.password());
             Statement st = master.createStatement()) {
            st.execute("IF DB_ID(N'" + DB + "') IS NULL CREATE DATABASE " + DB);
        }
        String url = s.url() + ";databaseName=" + DB;
        String tls = url.replaceAll(";encrypt=[^;]*", "") + ";encrypt=true;trustServerCertificate=true";
        return new Server(url, tls, s.user(), Files.writeString(home.resolve("password"), s.password()));
    }
}
