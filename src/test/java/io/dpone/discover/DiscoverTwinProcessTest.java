package io.dpone.discover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.connect.ConnectionContext;
import io.dpone.testing.CliRun;
import io.dpone.testing.mssql.MssqlTwinProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpone discover} through mssql-jdbc against the SQL Server twin: the SQL Server catalogue path
 * ({@code sys.tables.is_tracked_by_cdc}, {@code cdc.change_tables}, {@code sys.change_tracking_tables}, the row
 * estimate from {@code sys.partitions} where {@code sys.dm_db_partition_stats} is not readable) and the types only a
 * server has: a {@code sql_variant} moves under the {@code as_text} policy discover declares, a {@code geography}
 * through its conversion; the generated manifests pass {@code check --connect}.
 */
@io.dpone.testing.ProcessTest
class DiscoverTwinProcessTest {
    static MssqlTwinProcess twin;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        twin = MssqlTwinProcess.start(dir.resolve("twin"));
        try (Connection c = twin.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE dbo.orders (order_id int NOT NULL PRIMARY KEY, amount decimal(18,2))");
            st.execute("INSERT INTO dbo.orders VALUES (1, 10.50), (2, 20.25), (3, 30.00)");
            st.execute("EXEC sys.sp_cdc_enable_db");
            st.execute("EXEC sys.sp_cdc_enable_table @source_schema = N'dbo', @source_name = N'orders', "
                + "@role_name = NULL");
            st.execute("CREATE TABLE dbo.tracked (id int NOT NULL PRIMARY KEY, v nvarchar(20))");
            try {
                st.execute("ALTER DATABASE [" + MssqlTwinProcess.DATABASE + "] SET CHANGE_TRACKING = ON "
                    + "(CHANGE_RETENTION = 2 DAYS, AUTO_CLEANUP = ON)");
            } catch (java.sql.SQLException e) {
                if (e.getErrorCode() != 5088) {
                    throw e;
                }
            }
            st.execute("ALTER TABLE dbo.tracked ENABLE CHANGE_TRACKING WITH (TRACK_COLUMNS_UPDATED = OFF)");
            st.execute("CREATE TABLE dbo.variants (id int NOT NULL PRIMARY KEY, v sql_variant)");
            st.execute("CREATE TABLE dbo.places (id int NOT NULL PRIMARY KEY, location geography, "
                + "valid_to datetime2(7))");
            st.execute("CREATE TABLE dbo.loose (note nvarchar(50))");
        }
    }

    @AfterAll
    static void stop() {
        if (twin != null) {
            twin.close();
        }
    }

    @Test
    void theSqlServerCatalogueGivesVerdictsCdcStateAndPolicies() throws Exception {
        System.setProperty(ConnectionContext.PROPERTY, Files.writeString(dir.resolve("context.yaml"), """
            connections:
              src: {type: mssql, url: "%s", user: %s, password_file: "%s"}
              dst: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(twin.tlsUrl(), MssqlTwinProcess.USER, twin.passwordFile(),
                io.dpone.testing.TestEngines.clickHousePath())).toString()); // one embedded engine per process
        try {
            Path out = dir.resolve("out");
            CliRun run = CliRun.of("discover", "--connection", "src", "--sink", "dst", "--output", out.toString());
            assertEquals(0, run.exitCode(), run.stderr());
            JsonNode catalog = new ObjectMapper().readTree(out.resolve("catalog.json").toFile());
            Map<String, JsonNode> t = new HashMap<>();
            catalog.path("tables").forEach(x -> t.put(x.path("schema").asText() + "." + x.path("name").asText(), x));
            assertEquals(java.util.Set.of("dbo.orders", "dbo.tracked", "dbo.variants", "dbo.places", "dbo.loose"),
                t.keySet(), "user tables only: no cdc change table, no catalogue table");
            assertEquals("sys.tables", catalog.path("provenance").path("tables").asText());
            assertEquals("sys.change_tracking_tables", catalog.path("provenance").path("change_tracking").asText());
            // the twin has no sys.dm_db_partition_stats: rows from sys.partitions, no bytes, as without VIEW DATABASE STATE
            assertEquals("sys.partitions", catalog.path("provenance").path("estimated_rows").asText());
            assertTrue(catalog.path("provenance").path("estimated_bytes").isNull());
            JsonNode orders = t.get("dbo.orders");
            assertTrue(orders.path("cdc").path("tracked_by_cdc").asBoolean());
            assertEquals("[\"dbo_orders\"]", orders.path("cdc").path("capture_instances").toString());
            assertEquals("snapshot_then_cdc", orders.path("recommended").path("mode").asText());
            assertEquals(3, orders.path("estimated_rows").asLong());
            assertEquals(Boolean.FALSE, orders.path("cdc").path("change_tracking").asBoolean());
            JsonNode tracked = t.get("dbo.tracked");
            assertTrue(tracked.path("cdc").path("change_tracking").asBoolean());
            assertEquals("snapshot_then_change_tracking", tracked.path("recommended").path("mode").asText());
            JsonNode variants = t.get("dbo.variants");
            assertEquals("policy", variants.path("verdict").asText(), variants::toString);
            assertTrue(Files.readString(out.resolve("manifests/dbo.variants.batch.yaml")).contains("v: as_text"));
            JsonNode places = t.get("dbo.places");
            assertEquals("exact", places.path("verdict").asText(), places::toString);
            Map<String, String> verdicts = new HashMap<>();
            places.path("columns").forEach(c -> verdicts.put(c.path("name").asText(), c.path("verdict").asText()));
            assertEquals(Map.of("id", "exact", "location", "converted", "valid_to", "range_checked"), verdicts);
            assertEquals(List.of(), new ObjectMapper().convertValue(t.get("dbo.loose").path("recommended")
                .path("order_by"), List.class));
            for (String m : List.of("dbo.orders", "dbo.tracked", "dbo.variants", "dbo.places", "dbo.loose")) {
                CliRun check = CliRun.of("check", "--connect", out.resolve("manifests/" + m + ".batch.yaml").toString());
                assertEquals(0, check.exitCode(), () -> m + ": " + check.stderr());
            }
            for (String f : List.of("catalog.json", "summary.md", "serve.yaml", "manifests/dbo.orders.batch.yaml")) {
                String text = Files.readString(out.resolve(f));
                assertFalse(text.contains(twin.password()) || text.contains(":" + twin.port())
                    || text.contains("jdbc:"), f);
            }
        } finally {
            System.clearProperty(ConnectionContext.PROPERTY);
        }
    }
}
