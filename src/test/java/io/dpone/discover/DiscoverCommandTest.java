package io.dpone.discover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.EmbeddedDefaults;
import io.dpone.serve.ServeConfig;
import io.dpone.serve.ServeConfigLoader;
import io.dpone.testing.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpone discover} (issue 32 item 1) on a 30-table schema of the embedded H2 source with mixed keys (int,
 * bigint, composite, GUID, text, unique-only, none), types (date columns that refuse out-of-range values, an array
 * and a JSON column that are refused, names no manifest can spell) and CDC states (two capture instances of the
 * emulation's {@code cdc.change_tables}): every table gets a verdict, every generated manifest passes
 * {@code dpone check} (and {@code check --connect}), include/exclude select, a rerun keeps a hand-edited manifest,
 * and no output holds the credential or the endpoint.
 */
@io.dpone.testing.EngineTest // check --connect reaches the generated manifests' sink, the embedded engine
class DiscoverCommandTest {
    static final String SECRET = "Discover-Secret-7f3a";
    static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path dir;
    String url;
    Connection source;

    @BeforeEach
    void setUp() throws Exception {
        url = EmbeddedDefaults.h2Url(dir.resolve("h2").resolve("src"));
        source = DriverManager.getConnection(url, "sa", SECRET); // the first connection sets sa's password
        try (Statement st = source.createStatement()) {
            for (String s : List.of("dbo", "sales", "archive", "cdc")) {
                st.execute("CREATE SCHEMA IF NOT EXISTS " + s);
            }
            st.execute("CREATE TABLE dbo.customers (customer_id INT NOT NULL PRIMARY KEY, name NVARCHAR(100), "
                + "born DATE, created_at DATETIME2(7) NOT NULL)");
            st.execute("CREATE TABLE dbo.orders (order_id BIGINT NOT NULL PRIMARY KEY, customer_id INT NOT NULL, "
                + "amount DECIMAL(18,2), status VARCHAR(20))");
            st.execute("CREATE TABLE dbo.order_lines (order_id BIGINT NOT NULL, line_no SMALLINT NOT NULL, "
                + "qty INT NOT NULL, PRIMARY KEY (order_id, line_no))");
            st.execute("CREATE TABLE dbo.sessions (session_id UUID NOT NULL PRIMARY KEY, started REAL, "
                + "payload VARBINARY(200))");
            st.execute("CREATE TABLE dbo.countries (code VARCHAR(3) NOT NULL PRIMARY KEY, name NVARCHAR(60))");
            st.execute("CREATE TABLE dbo.events_log (at_time TIME(7), message NVARCHAR(200))");
            st.execute("CREATE TABLE dbo.ledger (entry_no INT NOT NULL, amount DECIMAL(18,4), flag BIT, "
                + "CONSTRAINT ledger_entry UNIQUE (entry_no))");
            st.execute("CREATE TABLE dbo.refused_arrays (id INT NOT NULL PRIMARY KEY, tags INT ARRAY)");
            st.execute("CREATE TABLE dbo.json_docs (id INT NOT NULL PRIMARY KEY, doc JSON)");
            st.execute("CREATE TABLE dbo.\"order details\" (id INT NOT NULL PRIMARY KEY)");
            st.execute("CREATE TABLE dbo.bad_cols (id INT NOT NULL PRIMARY KEY, \"unit price\" DECIMAL(10,2))");
            st.execute("CREATE TABLE dbo.audit_trail (at DATETIME2(3), who NVARCHAR(50))");
            st.execute("CREATE TABLE dbo.big_facts (fact_id INT NOT NULL PRIMARY KEY, v INT NOT NULL)");
            st.execute("CREATE TABLE archive.old_orders (order_id BIGINT NOT NULL PRIMARY KEY, amount DECIMAL(18,2))");
            String[] keys = {"id INT NOT NULL PRIMARY KEY, v NVARCHAR(20)",
                "a INT NOT NULL, b VARCHAR(10) NOT NULL, v INT, PRIMARY KEY (a, b)",
                "id UUID NOT NULL PRIMARY KEY, v DATE",
                "code NVARCHAR(10) NOT NULL PRIMARY KEY, v BIGINT",
                "v INT, w NVARCHAR(10)"};
            for (int i = 1; i <= 16; i++) {
                st.execute("CREATE TABLE sales.t" + String.format("%02d", i) + " (" + keys[i % keys.length] + ")");
            }
            st.execute("INSERT INTO sales.t05 VALUES (1, 'x'), (2, 'y')");
            // the CDC emulation: capture instances by SQL Server's default name <schema>_<table>
            st.execute("CREATE TABLE cdc.change_tables (capture_instance NVARCHAR(128), start_lsn BINARY(10))");
            st.execute("INSERT INTO cdc.change_tables VALUES ('dbo_orders', X'00000000000000000100'), "
                + "('dbo_audit_trail', X'00000000000000000100')");
            st.execute("ANALYZE");
        }
        Path secretFile = Files.writeString(dir.resolve("sa.secret"), SECRET);
        System.setProperty(ConnectionContext.PROPERTY, Files.writeString(dir.resolve("context.yaml"), """
            connections:
              src: {type: mssql, url: "%s", user: sa, password_file: "%s"}
              dst: {type: clickhouse, embedded: true, options: {path: "%s"}}
            """.formatted(url, secretFile, io.dpone.testing.TestEngines.clickHousePath())).toString()); // one engine per process
    }

    @AfterEach
    void tearDown() throws Exception {
        System.clearProperty(ConnectionContext.PROPERTY);
        source.close();
    }

    private CliRun discover(Path out, String... extra) {
        List<String> args = new ArrayList<>(List.of("discover", "--connection", "src", "--sink", "dst",
            "--output", out.toString()));
        args.addAll(List.of(extra));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static JsonNode catalog(Path out) throws Exception {
        return JSON.readTree(out.resolve("catalog.json").toFile());
    }

    private static Map<String, JsonNode> tables(JsonNode catalog) {
        Map<String, JsonNode> byName = new HashMap<>();
        catalog.path("tables").forEach(t -> byName.put(t.path("schema").asText() + "." + t.path("name").asText(), t));
        return byName;
    }

    /**
     * The done-when's second half on the same 30-table schema: {@code dpone run} on the directory discover wrote moves
     * every movable table (every key shape, heaps and empty tables included) in one process, every gate green.
     */
    @Test
    void theDiscoveredDirectoryRunsAsOneFleetWithEveryGateGreen() throws Exception {
        try (Statement st = source.createStatement()) {
            st.execute("INSERT INTO dbo.customers SELECT X, 'c' || X, DATEADD(DAY, X, DATE '1970-01-01'), "
                + "TIMESTAMP '2024-01-01 00:00:00' + X * INTERVAL '1' SECOND FROM SYSTEM_RANGE(1, 3000)");
            st.execute("INSERT INTO dbo.order_lines SELECT X / 4, MOD(X, 4), X FROM SYSTEM_RANGE(1, 2000)");
            st.execute("INSERT INTO dbo.sessions SELECT RANDOM_UUID(), X / 3.0, CAST(X AS VARBINARY(8)) "
                + "FROM SYSTEM_RANGE(1, 500)");
            st.execute("INSERT INTO dbo.countries SELECT 'K' || X, 'country ' || X FROM SYSTEM_RANGE(1, 90)");
            st.execute("INSERT INTO dbo.events_log SELECT TIME '00:00:00' + X * INTERVAL '1' SECOND, 'e' || X "
                + "FROM SYSTEM_RANGE(1, 300)");
            st.execute("INSERT INTO dbo.ledger SELECT X, X / 100.0, MOD(X, 2) FROM SYSTEM_RANGE(1, 400)");
            st.execute("INSERT INTO sales.t01 SELECT X, 'k' || X, X FROM SYSTEM_RANGE(1, 700)"); // composite key
            st.execute("INSERT INTO sales.t02 SELECT RANDOM_UUID(), DATEADD(DAY, X, DATE '2020-01-01') "
                + "FROM SYSTEM_RANGE(1, 600)"); // GUID key
            st.execute("ANALYZE");
        }
        String db = io.dpone.testing.TestEngines.newDatabase("discofleet");
        Path out = dir.resolve("fleet");
        CliRun discovered = discover(out, "--target-database", db);
        assertEquals(0, discovered.exitCode(), discovered.stderr());
        long manifests;
        try (Stream<Path> files = Files.list(out.resolve("manifests"))) {
            manifests = files.count();
        }
        try {
            CliRun fleet = CliRun.of("run", out.toString(), "--run-id", "disco-" + db, "--parallel", "2",
                "--format", "json");
            assertEquals(0, fleet.exitCode(), fleet.stderr());
            JsonNode report = JSON.readTree(fleet.stdout());
            assertTrue(report.path("passed").asBoolean(), report::toString);
            assertEquals(manifests, report.path("tables").size());
            assertEquals(manifests, report.path("totals").path("passed").asInt());
            long rows = 0;
            for (JsonNode table : report.path("tables")) {
                assertEquals("passed", table.path("status").asText(), table::toString);
                assertFalse(table.path("gates").isEmpty(), table::toString);
                table.path("gates").forEach(g -> assertTrue(Set.of("passed", "skipped").contains(
                    g.path("status").asText()), table::toString));
                rows += table.path("loaded_rows").asLong();
            }
            assertEquals(3000 + 2000 + 500 + 90 + 300 + 400 + 700 + 600 + 2, rows, report::toString);
        } finally {
            try (io.dpone.clickhouse.ClickHouseEndpoint ch = io.dpone.testing.TestEngines.clickhouse()) {
                ch.execute("DROP DATABASE IF EXISTS " + io.dpone.clickhouse.ClickHouseSql.id(db));
            }
        }
    }

    @Test
    void everyTableGetsAVerdictAndEveryManifestPassesCheck() throws Exception {
        try (Statement st = source.createStatement()) {
            st.execute("INSERT INTO dbo.big_facts SELECT X, X % 7 FROM SYSTEM_RANGE(1, 1000000)");
            st.execute("ANALYZE");
        }
        Path out = dir.resolve("out");
        CliRun run = discover(out);
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("30 table(s)"), run.stdout());
        JsonNode catalog = catalog(out);
        var schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(JSON.readTree(Path.of("src/main/resources/schema/catalog.schema.json").toFile()));
        assertEquals(Set.of(), schema.validate(catalog), "catalog.json follows its schema");
        assertEquals("dpone.catalog.v1", catalog.path("schema").asText());
        Map<String, JsonNode> t = tables(catalog);
        assertEquals(30, t.size(), t.keySet()::toString);
        assertEquals(30, catalog.path("counts").path("tables").asInt());
        for (JsonNode table : t.values()) {
            String verdict = table.path("verdict").asText();
            assertTrue(Set.of("exact", "policy", "blocked").contains(verdict), table::toString);
            assertEquals(verdict.equals("blocked"), table.path("manifest").isNull(), table::toString);
            assertEquals(verdict.equals("blocked"), !table.path("blockers").isEmpty(), table::toString);
        }
        // the refused types and the names no manifest can spell: typed reasons, no manifest
        assertEquals("source.type_unsupported", t.get("dbo.refused_arrays").path("blockers").get(0).path("code").asText());
        assertEquals("refused", column(t.get("dbo.refused_arrays"), "tags").path("verdict").asText());
        assertEquals("source.type_unsupported", t.get("dbo.json_docs").path("blockers").get(0).path("code").asText());
        assertEquals("manifest.invalid_identifier",
            t.get("dbo.order details").path("blockers").get(0).path("code").asText());
        assertEquals("manifest.invalid_identifier", t.get("dbo.bad_cols").path("blockers").get(0).path("code").asText());
        assertEquals(4, catalog.path("counts").path("blocked").asInt());
        assertEquals(26, catalog.path("counts").path("manifests").asInt());
        // keys
        assertEquals(List.of("order_id", "line_no"), strings(t.get("dbo.order_lines").path("primary_key")));
        assertEquals(List.of("order_id", "line_no"), strings(t.get("dbo.order_lines").path("recommended").path("order_by")));
        assertEquals("[[\"entry_no\"]]", t.get("dbo.ledger").path("unique_keys").toString());
        assertEquals(List.of("entry_no"), strings(t.get("dbo.ledger").path("recommended").path("order_by")));
        assertEquals(List.of(), strings(t.get("dbo.events_log").path("recommended").path("order_by")));
        assertTrue(t.get("dbo.events_log").path("notes").toString().contains("no primary or non-null unique key"));
        assertEquals("UUID", column(t.get("dbo.sessions"), "session_id").path("targets").get(0).path("clickhouse_type").asText());
        // date/time columns refuse values outside ClickHouse's range unless a policy is declared: said, per column
        assertEquals("range_checked", column(t.get("dbo.customers"), "born").path("verdict").asText());
        assertEquals("refuse", column(t.get("dbo.customers"), "born").path("targets").get(0).path("policy").asText());
        assertEquals("exact", column(t.get("dbo.customers"), "name").path("verdict").asText());
        // estimates from the catalogue, and the readers they recommend
        assertEquals(1_000_000L, t.get("dbo.big_facts").path("estimated_rows").asLong());
        assertTrue(t.get("dbo.big_facts").path("estimated_bytes").asLong() > t.get("dbo.countries")
            .path("estimated_bytes").asLong(), t.get("dbo.big_facts")::toString);
        assertEquals(2, t.get("dbo.big_facts").path("recommended").path("parallel_readers").asInt());
        assertEquals(1, t.get("dbo.order_lines").path("recommended").path("parallel_readers").asInt());
        assertEquals("DISK_SPACE_USED (H2)", catalog.path("provenance").path("estimated_bytes").asText());
        // CDC state: the emulation's capture instances
        JsonNode orders = t.get("dbo.orders");
        assertTrue(orders.path("cdc").path("tracked_by_cdc").asBoolean());
        assertEquals(List.of("dbo_orders"), strings(orders.path("cdc").path("capture_instances")));
        assertEquals("snapshot_then_cdc", orders.path("recommended").path("mode").asText());
        assertTrue(orders.path("cdc").path("change_tracking").isNull(), "no Change Tracking catalogue on H2");
        assertEquals("full_refresh", t.get("dbo.audit_trail").path("recommended").path("mode").asText(),
            "tracked by CDC but no key to apply changes by");
        assertFalse(t.get("dbo.customers").path("cdc").path("tracked_by_cdc").asBoolean());

        // every generated manifest passes check, and check --connect (the source's columns as they would move)
        List<Path> manifests;
        try (Stream<Path> files = Files.list(out.resolve("manifests"))) {
            manifests = files.sorted().toList();
        }
        assertEquals(26, manifests.size());
        for (Path m : manifests) {
            CliRun check = CliRun.of("check", m.toString());
            assertEquals(0, check.exitCode(), () -> m + ": " + check.stderr());
            CliRun connect = CliRun.of("check", "--connect", m.toString());
            assertEquals(0, connect.exitCode(), () -> m + ": " + connect.stderr());
        }
        assertTrue(Files.readString(out.resolve("manifests/dbo.big_facts.batch.yaml")).contains("parallel_readers: 2"));
        // the serve configuration loads, one job per manifest
        ServeConfig serve = ServeConfigLoader.load(out.resolve("serve.yaml"));
        assertEquals(26, serve.jobs().size());
        assertEquals("orders", serve.jobs().stream().filter(j -> j.name().equals("dbo-orders")).findFirst()
            .orElseThrow().manifest().sink().table().name());
        // the summary: counts, the largest table first, the decisions
        String summary = Files.readString(out.resolve("summary.md"));
        assertTrue(summary.contains("**22 move exactly**") || summary.contains("move exactly**"), summary);
        assertTrue(summary.indexOf("`dbo.big_facts`") < summary.indexOf("`dbo.orders`"), summary);
        assertTrue(summary.contains("### Cannot move as is (4)"), summary);
        assertTrue(summary.contains("`dbo.orders`: snapshot_then_cdc (capture instance dbo_orders)"), summary);
        assertNoSecrets(out, run);
        org.apache.commons.io.FileUtils.copyDirectory(out.toFile(), Path.of("target/scratch/out").toFile());
    }

    @Test
    void includeAndExcludeSelectBySchemaDotTableGlobs() throws Exception {
        Path out = dir.resolve("some");
        CliRun run = discover(out, "--include", "dbo.*", "--include", "t0?", "--exclude", "*_log",
            "--exclude", "dbo.big*", "--target-database", "lake");
        assertEquals(0, run.exitCode(), run.stderr());
        JsonNode catalog = catalog(out);
        Map<String, JsonNode> t = tables(catalog);
        assertTrue(t.containsKey("dbo.orders") && t.containsKey("sales.t05"), t.keySet()::toString);
        assertFalse(t.containsKey("dbo.events_log") || t.containsKey("dbo.big_facts") || t.containsKey("sales.t10")
            || t.containsKey("archive.old_orders"), t.keySet()::toString);
        assertEquals(9, t.keySet().stream().filter(k -> k.startsWith("sales.")).count());
        List<String> excluded = strings(catalog.path("excluded_tables"));
        assertTrue(excluded.containsAll(List.of("dbo.events_log", "dbo.big_facts", "sales.t10", "archive.old_orders")),
            excluded::toString);
        assertEquals(30, t.size() + excluded.size());
        assertEquals("lake", t.get("dbo.orders").path("target").path("database").asText());
        assertTrue(Files.readString(out.resolve("manifests/dbo.orders.batch.yaml"))
            .contains("table: {schema: lake, name: orders}"));
        CliRun bad = discover(dir.resolve("bad"), "--include", "dbo.[x]");
        assertEquals(2, bad.exitCode(), bad.stderr());
        assertTrue(bad.stderr().contains("--include pattern"), bad.stderr());
    }

    @Test
    void aRerunKeepsHandEditsUpdatesUntouchedFilesAndRetiresDroppedTables() throws Exception {
        Path out = dir.resolve("rerun");
        assertEquals(0, discover(out).exitCode());
        Path customers = out.resolve("manifests/dbo.customers.batch.yaml");
        String edited = Files.readString(customers).replace("connection_ref: src\n  table: {schema: dbo, name: customers}\n",
            "connection_ref: src\n  table: {schema: dbo, name: customers}\n  value_policy: {default: clamp}\n").replace("source:\n",
            "# reviewed by hand\nsource:\n");
        Files.writeString(customers, edited);
        CliRun editedCheck = CliRun.of("check", customers.toString());
        assertEquals(0, editedCheck.exitCode(), () -> "the hand edit is a valid manifest: " + editedCheck.stderr()
            + edited);
        Path countries = out.resolve("manifests/dbo.countries.batch.yaml");
        String countriesBefore = Files.readString(countries);
        Path t02 = out.resolve("manifests/sales.t02.batch.yaml");
        Files.writeString(t02, Files.readString(t02) + "# mine\n");
        try (Statement st = source.createStatement()) {
            st.execute("DROP TABLE sales.t01"); // untouched manifest: removed
            st.execute("DROP TABLE sales.t02"); // edited manifest: kept
            st.execute("DELETE FROM dbo.events_log");
            st.execute("ALTER TABLE dbo.events_log ADD COLUMN id INT NOT NULL DEFAULT 0");
            st.execute("ALTER TABLE dbo.events_log ADD PRIMARY KEY (id)"); // its manifest changes: updated
            st.execute("ALTER TABLE dbo.customers ADD COLUMN vip BIT"); // its manifest changes too, but was edited
            st.execute("ALTER TABLE dbo.customers ALTER COLUMN name NVARCHAR(200)");
        }
        String eventsBefore = Files.readString(out.resolve("manifests/dbo.events_log.batch.yaml"));
        CliRun again = discover(out);
        assertEquals(0, again.exitCode(), again.stderr());
        assertEquals(edited, Files.readString(customers), "the hand-edited manifest is kept byte for byte");
        assertTrue(again.stdout().contains("hand-edited file(s) kept"), again.stdout());
        Map<String, JsonNode> files = new HashMap<>();
        catalog(out).path("files").forEach(f -> files.put(f.path("path").asText(), f));
        JsonNode c = files.get("manifests/dbo.customers.batch.yaml");
        assertEquals("kept_edited", c.path("state").asText());
        assertEquals("manifests/dbo.customers.batch.yaml.proposed", c.path("proposal").asText());
        assertTrue(Files.exists(out.resolve("manifests/dbo.customers.batch.yaml.proposed")));
        assertEquals("unchanged", files.get("manifests/dbo.countries.batch.yaml").path("state").asText());
        assertEquals(countriesBefore, Files.readString(countries));
        assertEquals("updated", files.get("manifests/dbo.events_log.batch.yaml").path("state").asText());
        String eventsAfter = Files.readString(out.resolve("manifests/dbo.events_log.batch.yaml"));
        assertFalse(eventsBefore.contains("order_by"));
        assertTrue(eventsAfter.contains("order_by: [id]"), eventsAfter);
        assertEquals("removed", files.get("manifests/sales.t01.batch.yaml").path("state").asText());
        assertFalse(Files.exists(out.resolve("manifests/sales.t01.batch.yaml")));
        assertEquals("kept_orphan", files.get("manifests/sales.t02.batch.yaml").path("state").asText());
        assertTrue(Files.exists(t02));
        String summary = Files.readString(out.resolve("summary.md"));
        assertTrue(summary.contains("`manifests/dbo.customers.batch.yaml`: differs from what discover last wrote, "
            + "kept; the new proposal is `manifests/dbo.customers.batch.yaml.proposed`"), summary);
        // a third run: the edit is still kept, nothing else moves
        assertEquals(0, discover(out).exitCode());
        assertEquals(edited, Files.readString(customers));
        Map<String, String> states = new HashMap<>();
        catalog(out).path("files").forEach(f -> states.put(f.path("path").asText(), f.path("state").asText()));
        assertEquals("kept_edited", states.get("manifests/dbo.customers.batch.yaml"));
        assertEquals("unchanged", states.get("manifests/dbo.events_log.batch.yaml"));
        // accepting the proposal settles it
        Files.move(out.resolve("manifests/dbo.customers.batch.yaml.proposed"), customers,
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertEquals(0, discover(out).exitCode());
        catalog(out).path("files").forEach(f -> states.put(f.path("path").asText(), f.path("state").asText()));
        assertEquals("unchanged", states.get("manifests/dbo.customers.batch.yaml"));
        assertFalse(Files.exists(out.resolve("manifests/dbo.customers.batch.yaml.proposed")));
    }

    @Test
    void aFileDiscoverHasNoRecordOfIsNeverOverwritten() throws Exception {
        Path out = dir.resolve("foreign");
        Files.createDirectories(out.resolve("manifests"));
        Path mine = Files.writeString(out.resolve("manifests/dbo.orders.batch.yaml"), "# written by a person\n");
        Files.writeString(out.resolve("catalog.json"), "{not json");
        assertEquals(0, discover(out).exitCode());
        assertEquals("# written by a person\n", Files.readString(mine));
        assertTrue(Files.exists(out.resolve("manifests/dbo.orders.batch.yaml.proposed")));
    }

    @Test
    void unknownAliasesAndABadTargetAreTypedBlockersBeforeAnythingIsWritten() throws Exception {
        Path out = dir.resolve("none");
        CliRun run = CliRun.of("discover", "--connection", "nope", "--sink", "src", "--target-database", "a-b",
            "--output", out.toString(), "--format", "json");
        assertEquals(1, run.exitCode());
        JsonNode doc = JSON.readTree(run.stderr());
        List<String> codes = new ArrayList<>();
        doc.path("blockers").forEach(b -> codes.add(b.path("code").asText() + "@" + b.path("subject").asText()));
        assertEquals(List.of("connection.ref_unknown@--connection", "connection.type_mismatch@--sink",
            "manifest.invalid_identifier@--target-database"), codes);
        assertFalse(Files.exists(out));
    }

    private void assertNoSecrets(Path out, CliRun run) throws Exception {
        List<String> texts = new ArrayList<>(List.of(run.stdout(), run.stderr()));
        try (Stream<Path> files = Files.walk(out)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                texts.add(Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        for (String text : texts) {
            assertFalse(text.contains(SECRET), "the credential");
            assertFalse(text.contains("jdbc:"), "the endpoint");
            assertFalse(text.contains(dir.toString()), "a local path");
        }
    }

    private static JsonNode column(JsonNode table, String name) {
        for (JsonNode c : table.path("columns")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no column " + name + " in " + table);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
