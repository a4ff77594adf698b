package io.dpone.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/connections.md: a literal credential anywhere in a connection context is refused. Each one is
 * {@code connection.literal_secret}, whose subject and message name the alias and the field, never the value.
 */
class ConnectionContextSecretsTest {
    static final String SECRET = "Hunter2-Planted";

    @TempDir
    Path dir;

    private List<Blocker> refused(String alias) throws Exception {
        Path file = Files.writeString(dir.resolve("context.yaml"), "connections:\n" + alias);
        List<Blocker> blockers = assertThrows(DponeException.class, () -> ConnectionContext.load(file)).blockers();
        for (Blocker b : blockers) {
            assertFalse(b.message().contains(SECRET) || b.subject().contains(SECRET)
                || String.valueOf(b.details()).contains(SECRET), b.toString());
        }
        return blockers;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "options password | options: {database: analytics, password: " + SECRET + "}"
            + " | connections.src.options.password | option 'password'",
        "options access key | options: {bucket: b, access_key_id: " + SECRET + "}"
            + " | connections.src.options.access_key_id | option 'access_key_id'",
        "nested option token | options: {auth: {token: " + SECRET + "}}"
            + " | connections.src.options.auth.token | option 'token'",
        "password on the alias | 'password: " + SECRET + "' | connections.src.password | in 'password'",
        "pwd on the alias | 'pwd: " + SECRET + "' | connections.src.pwd | in 'pwd'",
        "option URL userinfo | 'options: {clickhouse_endpoint: \"http://minio:" + SECRET + "@minio:9000\"}'"
            + " | connections.src.options.clickhouse_endpoint | user-info"})
    void aLiteralCredentialIsRefusedNamingAliasAndField(String name, String line, String subject, String field)
            throws Exception {
        List<Blocker> blockers = refused("""
              src:
                type: mssql
                url: "jdbc:sqlserver://sql.internal:1433;databaseName=sales"
                user: etl
                password_env: DPONE_PW
                %s
            """.formatted(line));
        assertEquals(1, blockers.size(), blockers::toString);
        Blocker b = blockers.get(0);
        assertEquals("connection.literal_secret", b.code());
        assertEquals(subject, b.subject());
        assertTrue(b.message().contains("alias 'src'") && b.message().contains(field), b.message());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "sqlserver password | jdbc:sqlserver://sql.internal:1433;databaseName=sales;password=" + SECRET + " | password",
        "h2 PASSWORD | jdbc:h2:mem:x;MODE=MSSQLServer;PASSWORD=" + SECRET + " | PASSWORD",
        "pwd | jdbc:sqlserver://sql.internal:1433;pwd=" + SECRET + ";encrypt=true | pwd",
        "spaced password | jdbc:sqlserver://sql.internal:1433; Password = " + SECRET + " x | Password",
        "query token | https://ch.internal:8443/?token=" + SECRET + " | token",
        "https userinfo | https://dpone:" + SECRET + "@ch.internal:8443 | user-info",
        "s3 userinfo | s3://key:" + SECRET + "@bucket/prefix | user-info"})
    void aCredentialInTheUrlIsRefusedNamingTheParameter(String name, String url, String field) throws Exception {
        List<Blocker> blockers = refused("""
              src:
                type: mssql
                url: "%s"
                password_env: DPONE_PW
            """.formatted(url));
        assertEquals(1, blockers.size(), blockers::toString);
        assertEquals("connection.literal_secret", blockers.get(0).code());
        assertEquals("connections.src.url", blockers.get(0).subject());
        assertTrue(blockers.get(0).message().contains(field), blockers.get(0).message());
    }

    @Test
    void urlsWithoutCredentialsAreAccepted() throws Exception {
        Path file = Files.writeString(dir.resolve("ok.yaml"), """
            connections:
              sql:
                type: mssql
                url: "jdbc:sqlserver://sql.internal:1433;databaseName=sales;encrypt=true;trustServerCertificate=true"
                user: etl
                password_env: DPONE_PW
              ch:
                type: clickhouse
                url: "https://dpone@ch.internal:8443/?compress=1"
                password_file: /run/secrets/ch
                options: {database: analytics, members: "ch1:9000=ch", clickhouse_endpoint: "http://minio:9000"}
            """);
        ConnectionContext context = ConnectionContext.load(file);
        assertTrue(context.entry("sql").isPresent() && context.entry("ch").isPresent());
    }
}
