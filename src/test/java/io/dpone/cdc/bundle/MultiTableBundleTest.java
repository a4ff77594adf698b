package io.dpone.cdc.bundle;

import static io.dpone.cdc.mssql.H2MultiTableCdcFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.cdc.mssql.H2MultiTableCdcFixture;
import io.dpone.cdc.runtime.ClickHouseCdcAdapters;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.ClickHouseSql;
import io.dpone.testing.CliRun;
import io.dpone.testing.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The promotion bundle of a multi-table stream (issue 31, item 1 for {@code --table}) on the embedded default: the
 * H2 CDC emulation of two tables and the embedded ClickHouse. The bundle checks every table, is approved with a
 * digest per table, and a column added to one table's capture instance makes the next tick that requires the
 * approval refuse with {@code cdc_bundle.digest_drift} naming that table, with nothing applied and the offset
 * unchanged.
 */
@io.dpone.testing.EngineTest
class MultiTableBundleTest {
    private static final List<String> TABLE_CHECKS = List.of("source_table", "capture_enabled",
        "source_permissions", "unique_keys", "column_types", "sink_log", "serving_target");
    static ClickHouseEndpoint ch;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() {
        ch = TestEngines.clickhouse();
    }

    @AfterAll
    static void close() {
        ch.close();
    }

    @AfterEach
    void clear() {
        io.dpone.testing.LiveCdcContext.clear();
    }

    private static List<String> stream(String... more) {
        List<String> args = new ArrayList<>(List.of("--source", "mssql", "--sink", "clickhouse",
            "--backend", "mssql_cdc", "--pipeline-name", "shop-cdc",
            "--source-connection-id", "mssql-prod", "--sink-connection-id", "clickhouse-prod", "--format", "json"));
        args.addAll(List.of(more));
        return args;
    }

    private static CliRun bundle(Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("ops", "cdc-promotion-bundle", "--output-dir", out.toString()));
        args.addAll(stream(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static CliRun tick(String... more) {
        List<String> args = new ArrayList<>(List.of("ops", "cdc-runtime-run", "--mode", "live"));
        args.addAll(stream(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static JsonNode json(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    private static JsonNode file(Path out) throws Exception {
        return json(Files.readString(out.resolve(CdcPromotionBundle.JSON_FILE)));
    }

    private static Set<String> codes(JsonNode doc) {
        Set<String> out = new TreeSet<>();
        doc.path("blockers").forEach(b -> out.add(b.path("code").asText()));
        return out;
    }

    private static List<String> ids(JsonNode checks) {
        List<String> out = new ArrayList<>();
        checks.forEach(c -> out.add(c.path("id").asText()));
        return out;
    }

    private static String[] tables(String db) {
        return new String[] {"--table", "dbo.customers=" + db + ".customers_cdc:id",
                             "--table", "dbo.orders=" + db + ".orders_cdc:id"};
    }

    private static String[] concat(String[] a, String... b) {
        List<String> out = new ArrayList<>(List.of(a));
        out.addAll(List.of(b));
        return out.toArray(String[]::new);
    }

    private static long rows(String db, String table) {
        return Long.parseLong(ch.query("SELECT count() FROM " + ClickHouseSql.table(db, table)).get(0).get(0));
    }

    /** Every row of the stream's offset table, as text: the committed offset. */
    private static List<List<String>> offsets(String db) {
        return ch.query("SELECT * FROM " + ClickHouseSql.table(db, ClickHouseCdcAdapters.OFFSETS_TABLE)
            + " ORDER BY tuple(*)");
    }

    @Test
    void aTwoTableBundlePassesIsApprovedAndADriftedColumnMakesTheNextTickRefuseNamingTheTable() throws Exception {
        String db = TestEngines.newDatabase("bundle_multi");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(), "customers", "orders")) {
            fx.txn().insert("customers", row(1, "ann", "1.00")).insert("orders", row(7, "o", "2.00")).commit();
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            Path out = dir.resolve("bundle");
            CliRun run = bundle(out, tables(db));
            assertEquals(0, run.exitCode(), run.stderr());
            JsonNode b = file(out);
            assertEquals(json(run.stdout()), b, "stdout and the file carry the same bundle");
            assertEquals(CdcPromotionBundle.SCHEMA, b.path("schema").asText());
            assertTrue(b.path("passed").asBoolean());
            assertEquals(0, b.path("blockers").size());
            assertEquals(List.of("stream_options", "source_reachable", "cleanup_retention", "sink_reachable",
                "sink_privileges", "offset_store"), ids(b.path("checks")));
            // the emulation has no msdb.dbo.cdc_jobs (see theCleanupJobsRetentionIsCheckedAgainstTheTickInterval)
            b.path("checks").forEach(c -> assertEquals(c.path("id").asText().equals("cleanup_retention") ? "skipped"
                : "passed", c.path("status").asText(), c.toString()));
            assertEquals(2, b.path("stream").path("tables").size());
            assertTrue(b.path("stream").path("source_table").isMissingNode(), "a multi-table stream names tables");
            assertEquals(0, b.path("columns").size());
            assertEquals(List.of("dbo.customers", "dbo.orders"), List.of(
                b.path("tables").get(0).path("table").asText(), b.path("tables").get(1).path("table").asText()));
            for (JsonNode t : b.path("tables")) {
                assertTrue(t.path("passed").asBoolean(), t.toString());
                assertEquals(TABLE_CHECKS, ids(t.path("checks")));
                t.path("checks").forEach(c -> assertEquals("passed", c.path("status").asText(), c.toString()));
                assertEquals(3, t.path("columns").size());
                assertEquals(3, t.path("source").path("captured_columns").size());
                assertEquals("dbo_" + t.path("source_table").asText(), t.path("capture_instance").asText());
                assertTrue(t.path("digest").asText().matches("[0-9a-f]{64}"));
                assertEquals(t.path("source"), b.path("source").path("tables").path(t.path("table").asText()));
            }
            assertNotEquals(b.path("tables").get(0).path("digest"), b.path("tables").get(1).path("digest"));
            String digest = b.path("digest").asText();
            assertTrue(digest.matches("[0-9a-f]{64}"));
            String md = Files.readString(out.resolve(CdcPromotionBundle.MARKDOWN_FILE));
            assertTrue(md.contains("## Table dbo.orders") && md.contains("## Table dbo.customers")
                && md.contains(digest), md);

            // the digest is stable, and the tables' order is part of the stream (its identity)
            assertEquals(0, bundle(dir.resolve("again"), tables(db)).exitCode());
            assertEquals(digest, file(dir.resolve("again")).path("digest").asText());
            String[] t = tables(db);
            assertEquals(0, bundle(dir.resolve("reordered"), t[2], t[3], t[0], t[1]).exitCode());
            assertNotEquals(digest, file(dir.resolve("reordered")).path("digest").asText());

            CliRun unapproved = tick(concat(tables(db), "--require-approved-bundle", out.toString()));
            assertEquals(1, unapproved.exitCode(), unapproved.stdout());
            assertEquals(Set.of("cdc_bundle.not_approved"), codes(json(unapproved.stderr())));

            CliRun approve = bundle(out, concat(tables(db), "--approve", "--approver", "Jane Doe"));
            assertEquals(0, approve.exitCode(), approve.stderr());
            JsonNode approval = json(Files.readString(out.resolve(CdcPromotionBundle.APPROVAL_FILE)));
            assertEquals(digest, approval.path("digest").asText());
            assertEquals(b.path("tables").get(1).path("digest").asText(),
                approval.path("tables").path("dbo.orders").asText());
            assertEquals(2, approval.path("tables").size());

            CliRun green = tick(concat(tables(db), "--require-approved-bundle", out.toString()));
            assertEquals(0, green.exitCode(), green.stderr());
            JsonNode r = json(green.stdout());
            assertTrue(r.path("committed").asBoolean());
            assertEquals(2, r.path("counts").path("applied").asLong());

            // the sink checks: each log is now this table's, the checkpoint this stream's; two logs swapped are not
            Path swapped = dir.resolve("swapped");
            CliRun swap = bundle(swapped, "--table", "dbo.customers=" + db + ".orders_cdc:id",
                "--table", "dbo.orders=" + db + ".customers_cdc:id");
            assertEquals(1, swap.exitCode(), swap.stdout());
            JsonNode sw = file(swapped);
            // a multi-table stream's id covers its pipeline, backend and log database, not its table list, so the
            // checkpoint is still this stream's; the tick refuses a table whose recorded log moved (MultiTableAdded-
            // TableTest), and the bundle names the swapped logs
            assertEquals(Set.of("cdc_bundle.sink_log_mismatch"), codes(sw));
            assertEquals("--table[1].target_dataset", sw.path("tables").get(1).path("blockers").get(0)
                .path("subject").asText());
            assertEquals("dbo.orders", sw.path("tables").get(1).path("blockers").get(0).path("details")
                .path("table").asText());
            assertEquals(0, bundle(dir.resolve("after-tick"), tables(db)).exitCode());
            assertEquals(digest, file(dir.resolve("after-tick")).path("digest").asText(),
                "the sink's state (logs, checkpoint) is checked, not pinned");

            // an option of the stream drifted: no table moved, the stream's configuration did
            CliRun otherBound = tick(concat(tables(db), "--require-approved-bundle", out.toString(),
                "--max-events", "10"));
            assertEquals(1, otherBound.exitCode());
            JsonNode bound = json(otherBound.stderr());
            assertEquals(Set.of("cdc_bundle.digest_drift"), codes(bound));
            assertTrue(bound.path("blockers").get(0).path("details").path("table").isMissingNode());

            // changes to read, then one table's source drifts: a column added to it and to its capture instance
            fx.txn().insert("customers", row(2, "bob", "3.00")).insert("orders", row(8, "o", "4.00")).commit();
            List<List<String>> offsetBefore = offsets(db);
            assertEquals(1, offsetBefore.size());
            try (Statement st = fx.connection.createStatement()) {
                st.execute("ALTER TABLE dbo.orders ADD channel NVARCHAR(20)");
                st.execute("ALTER TABLE cdc.[dbo_orders_CT] ADD channel NVARCHAR(20)");
            }
            CliRun drifted = tick(concat(tables(db), "--require-approved-bundle", out.toString()));
            assertEquals(1, drifted.exitCode(), drifted.stdout());
            JsonNode refused = json(drifted.stderr());
            assertEquals(Set.of("cdc_bundle.digest_drift"), codes(refused));
            assertEquals(1, refused.path("blockers").size(), "only the drifted table is named");
            JsonNode blocker = refused.path("blockers").get(0);
            assertEquals("dbo.orders", blocker.path("details").path("table").asText());
            assertTrue(blocker.path("message").asText().contains("table dbo.orders changed"), blocker.toString());
            assertEquals(approval.path("tables").path("dbo.orders").asText(),
                blocker.path("details").path("recorded_table_digest").asText());
            assertEquals(digest, blocker.path("details").path("recorded_digest").asText());
            assertFalse(refused.path("committed").asBoolean());
            assertEquals(1, rows(db, "customers_cdc"), "nothing was applied after the drift");
            assertEquals(1, rows(db, "orders_cdc"), "nothing was applied after the drift");
            assertEquals(offsetBefore, offsets(db), "the offset did not move");

            // approving the reviewed bundle again names the same table
            CliRun reapprove = bundle(out, concat(tables(db), "--approve", "--approver", "Jane Doe"));
            assertEquals(1, reapprove.exitCode());
            JsonNode again = json(reapprove.stderr());
            assertEquals(Set.of("cdc_bundle.digest_drift"), codes(again));
            assertEquals("dbo.orders", again.path("blockers").get(0).path("details").path("table").asText());
            ch.execute("DROP DATABASE IF EXISTS " + ClickHouseSql.id(db));
        }
    }

    @Test
    void theCleanupJobsRetentionIsCheckedAgainstTheTickInterval() throws Exception {
        String db = TestEngines.newDatabase("bundle_retention");
        // SQL Server keeps the cleanup job's settings in msdb.dbo.cdc_jobs: the emulation's database is named msdb
        // so that the three-part name resolves (closed, and gone, with the fixture)
        String url = "jdbc:h2:mem:msdb;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE";
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(url, "customers", "orders");
             Statement st = fx.connection.createStatement()) {
            st.execute("CREATE ALIAS DB_ID AS 'int dbId() { return 5; }'");
            st.execute("CREATE TABLE dbo.cdc_jobs (database_id INT, job_type NVARCHAR(20), retention BIGINT)");
            st.execute("INSERT INTO dbo.cdc_jobs VALUES (5, 'capture', 0), (5, 'cleanup', 60), (7, 'cleanup', 1)");
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            CliRun often = bundle(dir.resolve("often"), concat(tables(db), "--tick-interval", "10m"));
            assertEquals(0, often.exitCode(), often.stderr());
            JsonNode ok = file(dir.resolve("often")).path("checks").get(2);
            assertEquals("cleanup_retention", ok.path("id").asText());
            assertEquals("passed", ok.path("status").asText(), ok.toString());
            assertTrue(ok.path("detail").asText().contains("60 minute(s)"), ok.toString());

            CliRun rarely = bundle(dir.resolve("rarely"), concat(tables(db), "--tick-interval", "45m"));
            assertEquals(1, rarely.exitCode(), rarely.stdout());
            JsonNode red = file(dir.resolve("rarely"));
            assertEquals(Set.of("cdc_bundle.retention_too_short"), codes(red));
            JsonNode blocker = red.path("blockers").get(0);
            assertEquals(60, blocker.path("details").path("retention_minutes").asInt());
            assertEquals(2700, blocker.path("details").path("tick_interval_seconds").asInt());
            assertEquals("failed", red.path("checks").get(2).path("status").asText());
            assertEquals(file(dir.resolve("often")).path("digest"), red.path("digest"),
                "the retention is checked, not pinned: the digest is the same");

            CliRun unknown = bundle(dir.resolve("unknown"), tables(db));
            assertEquals(0, unknown.exitCode(), unknown.stderr());
            assertTrue(file(dir.resolve("unknown")).path("checks").get(2).path("detail").asText()
                .contains("not compared"));
            CliRun bad = bundle(dir.resolve("bad"), concat(tables(db), "--tick-interval", "soon"));
            assertEquals(2, bad.exitCode());
            assertTrue(bad.stderr().contains("--tick-interval"), bad.stderr());
        }
    }

    @Test
    void badTablesAreRefusedAndEachTablesBlockersNameIt() throws Exception {
        String db = TestEngines.newDatabase("bundle_multi_red");
        try (H2MultiTableCdcFixture fx = new H2MultiTableCdcFixture(TestEngines.newH2Url(), "customers", "orders")) {
            io.dpone.testing.LiveCdcContext.useEmbedded(dir, fx.url);
            // not SCHEMA.TABLE=DB.TABLE:KEY: a usage error, as cdc-runtime-run's
            Path out = dir.resolve("usage");
            CliRun malformed = bundle(out, "--table", "dbo.customers");
            assertEquals(2, malformed.exitCode(), malformed.stderr());
            assertTrue(malformed.stderr().contains("SCHEMA.TABLE=DB.TABLE:KEY"), malformed.stderr());
            assertFalse(Files.exists(out.resolve(CdcPromotionBundle.JSON_FILE)));

            // --table beside a single-table option: the stream's options are invalid, nothing is read
            Path mixed = dir.resolve("mixed");
            CliRun both = bundle(mixed, concat(tables(db), "--source-table", "orders"));
            assertEquals(1, both.exitCode());
            JsonNode m = file(mixed);
            assertEquals(Set.of("cdc_runtime.invalid_argument"), codes(m));
            assertEquals("--source-table", m.path("blockers").get(0).path("subject").asText());
            assertEquals("failed", m.path("checks").get(0).path("status").asText());
            for (JsonNode t : m.path("tables")) {
                t.path("checks").forEach(c -> assertEquals("skipped", c.path("status").asText(), c.toString()));
            }

            // a table that does not exist and a table keyed by a column that is not unique: both named, at once
            Path red = dir.resolve("red");
            CliRun run = bundle(red, "--table", "dbo.customers=" + db + ".customers_cdc:label",
                "--table", "dbo.missing=" + db + ".missing_cdc:id",
                "--table", "dbo.orders=" + db + ".orders_cdc:id");
            assertEquals(1, run.exitCode(), run.stdout());
            JsonNode b = file(red);
            assertFalse(b.path("passed").asBoolean());
            assertEquals(Set.of("cdc_bundle.unique_key_mismatch", "source.table_missing"), codes(b));
            for (JsonNode x : b.path("blockers")) {
                String table = x.path("details").path("table").asText();
                if (x.path("code").asText().equals("source.table_missing")) {
                    assertEquals("dbo.missing", table);
                } else {
                    assertEquals("dbo.customers", table);
                    assertEquals("--table[0].unique_keys", x.path("subject").asText());
                }
            }
            assertFalse(b.path("tables").get(0).path("passed").asBoolean());
            assertFalse(b.path("tables").get(1).path("passed").asBoolean());
            assertEquals(List.of("failed", "skipped", "skipped", "skipped"), List.of(
                b.path("tables").get(1).path("checks").get(0).path("status").asText(),
                b.path("tables").get(1).path("checks").get(1).path("status").asText(),
                b.path("tables").get(1).path("checks").get(2).path("status").asText(),
                b.path("tables").get(1).path("checks").get(3).path("status").asText()));
            assertTrue(b.path("tables").get(1).path("source").isNull());
            assertTrue(b.path("tables").get(2).path("passed").asBoolean(), "the sound table passes");
            assertTrue(Files.readString(red.resolve(CdcPromotionBundle.MARKDOWN_FILE))
                .contains("(table `dbo.missing`)"));

            CliRun approve = CliRun.of(concat(new String[] {"ops", "cdc-promotion-bundle", "--output-dir",
                red.toString()}, concat(stream().toArray(String[]::new), "--table",
                "dbo.customers=" + db + ".customers_cdc:label", "--table", "dbo.missing=" + db + ".missing_cdc:id",
                "--table", "dbo.orders=" + db + ".orders_cdc:id", "--approve", "--approver", "jane")));
            assertEquals(1, approve.exitCode());
            assertEquals(Set.of("cdc_bundle.not_approvable"), codes(json(approve.stderr())));
            assertFalse(Files.exists(red.resolve(CdcPromotionBundle.APPROVAL_FILE)));
        }
    }
}
