package io.dpone.testing;

import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.mssqlserver.MSSQLServerContainer;

/**
 * The real servers the {@code *IT} classes run against: servers people already have, named by environment
 * variables, or else Testcontainers containers when a Docker engine exists, or else the IT is skipped (aborted, not
 * failed). One server of each kind per test JVM.
 *
 * <ul>
 *   <li>{@code DPONE_IT_CLICKHOUSE_URL} (HTTP interface, e.g. {@code http://ch:8123}), {@code DPONE_IT_CLICKHOUSE_USER}
 *       (default {@code default}), {@code DPONE_IT_CLICKHOUSE_PASSWORD_ENV} (the name of the variable that holds the
 *       password; none: empty password);</li>
 *   <li>{@code DPONE_IT_MSSQL_URL} ({@code jdbc:sqlserver://host:1433;encrypt=false}, no database: the ITs create
 *       their own), {@code DPONE_IT_MSSQL_USER}, {@code DPONE_IT_MSSQL_PASSWORD_ENV}. SQL Server Agent must run for
 *       the CDC IT.</li>
 * </ul>
 */
public final class ItServers {
    /** A server's address and credentials. */
    public record Server(String url, String user, String password) {
    }

    private static Server clickhouse;
    private static Server mssql;

    private ItServers() {
    }

    /** The ClickHouse server of this JVM's ITs. */
    public static synchronized Server clickhouse() {
        if (clickhouse == null) {
            String url = System.getenv("DPONE_IT_CLICKHOUSE_URL");
            if (url != null && !url.isBlank()) {
                clickhouse = new Server(url.trim(), env("DPONE_IT_CLICKHOUSE_USER", "default"),
                    password("DPONE_IT_CLICKHOUSE_PASSWORD_ENV"));
            } else {
                requireDocker("DPONE_IT_CLICKHOUSE_URL");
                String password = "ch-" + UUID.randomUUID().toString().replace("-", "");
                ClickHouseContainer c = new ClickHouseContainer("clickhouse/clickhouse-server:25.8")
                    .withUsername("dpone").withPassword(password);
                c.start();
                clickhouse = new Server("http://" + c.getHost() + ":" + c.getMappedPort(8123), "dpone", password);
            }
        }
        return clickhouse;
    }

    /** The SQL Server of this JVM's ITs: a JDBC URL without a database. */
    public static synchronized Server mssql() {
        if (mssql == null) {
            String url = System.getenv("DPONE_IT_MSSQL_URL");
            if (url != null && !url.isBlank()) {
                mssql = new Server(trimSemicolons(url.trim()), env("DPONE_IT_MSSQL_USER", "sa"),
                    password("DPONE_IT_MSSQL_PASSWORD_ENV"));
            } else {
                requireDocker("DPONE_IT_MSSQL_URL");
                // SQL Server's policy wants three of: upper case, lower case, digits, symbols
                String password = "Dp1!" + UUID.randomUUID().toString().replace("-", "");
                MSSQLServerContainer c = new MSSQLServerContainer("mcr.microsoft.com/mssql/server:2022-latest")
                    .acceptLicense().withPassword(password).withEnv("MSSQL_AGENT_ENABLED", "true");
                c.start();
                mssql = new Server(trimSemicolons(c.getJdbcUrl()), c.getUsername(), password);
            }
        }
        return mssql;
    }

    private static void requireDocker(String variable) {
        boolean docker;
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            docker = false;
        }
        Assumptions.assumeTrue(docker, "no server: set " + variable + " or run where a Docker engine exists");
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v.trim();
    }

    private static String password(String nameVariable) {
        String name = System.getenv(nameVariable);
        if (name == null || name.isBlank()) {
            return "";
        }
        String value = System.getenv(name.trim());
        Assumptions.assumeTrue(value != null, nameVariable + " names " + name + ", which is not set");
        return value;
    }

    private static String trimSemicolons(String url) {
        String out = url;
        while (out.endsWith(";")) {
            out = out.substring(0, out.length() - 1);
        }
        return out;
    }
}
